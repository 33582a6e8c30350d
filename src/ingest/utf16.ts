import { TextDecoder } from 'node:util';
import { BlockDecoder, type ByteInput } from './byte-input.js';

/**
 * UTF-16 text files, known by their byte order mark: what Windows PowerShell 5 writes for `>` and
 * `Tee-Object`, and Python for `encoding='utf-16'`. Without the mark such a file stays binary (its
 * ASCII is half NUL bytes): nothing else tells it from binary data for sure.
 */
export type Utf16Encoding = 'utf-16le' | 'utf-16be';

/** The encoding a byte order mark at the start of `bytes` names, or null. */
export function utf16Encoding(bytes: Uint8Array): Utf16Encoding | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** The byte order mark's length: the text of a UTF-16 file starts after it. */
export const UTF16_BOM_BYTES = 2;

/**
 * UTF-16 bytes (a file's, from its byte order mark) read as the UTF-8 bytes of their text, in
 * blocks, so a large log streams through the same byte-level line filter as every other log. A
 * code unit split between two blocks is joined by the decoder; a character may be split between
 * two reads of the caller (it finds lines by their newline bytes, never decoding in between). Code
 * units that are not text (a lone surrogate, an odd last byte) become U+FFFD, as invalid UTF-8
 * does in a stream.
 */
export class Utf16AsUtf8 extends BlockDecoder {
  readonly #source: ByteInput;
  readonly #decoder: TextDecoder;
  readonly #block = Buffer.allocUnsafe(64 * 1024);
  #markSkipped = false;

  constructor(source: ByteInput, encoding: Utf16Encoding) {
    super();
    this.#source = source;
    this.#decoder = new TextDecoder(encoding, { ignoreBOM: true });
  }

  protected decodeBlock(out: (bytes: Uint8Array) => void): boolean {
    if (!this.#markSkipped) {
      this.#markSkipped = true;
      let skipped = 0;
      while (skipped < UTF16_BOM_BYTES) {
        const n = this.#source.read(this.#block, 0, UTF16_BOM_BYTES - skipped);
        if (n === 0) break;
        skipped += n;
      }
    }
    const n = this.#source.read(this.#block, 0, this.#block.length);
    const text = n === 0 ? this.#decoder.decode() : this.#decoder.decode(this.#block.subarray(0, n), { stream: true });
    out(Buffer.from(text, 'utf8'));
    return n > 0;
  }
}
