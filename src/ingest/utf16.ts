import { readSync } from 'node:fs';
import { TextDecoder } from 'node:util';

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

/** Where file bytes are read from: a file as it is (UTF-8), or transcoded (see Utf16AsUtf8). */
export interface ByteInput {
  /** Fills buf[offset, offset + length) from the next bytes; 0 only at the end. */
  read(buf: Buffer, offset: number, length: number): number;
}

/** A file's bytes as they are, from its current position. */
export function plainInput(fd: number): ByteInput {
  return { read: (buf, offset, length) => readSync(fd, buf, offset, length, null) };
}

/**
 * A UTF-16 file read as the UTF-8 bytes of its text (after its byte order mark), in blocks, so a
 * large log streams through the same byte-level line filter as every other log. A code unit split
 * between two blocks is joined by the decoder; a character may be split between two reads of the
 * caller (it finds lines by their newline bytes, never decoding in between). Code units that are
 * not text (a lone surrogate, an odd last byte) become U+FFFD, as invalid UTF-8 does in a stream.
 */
export class Utf16AsUtf8 implements ByteInput {
  readonly #fd: number;
  readonly #decoder: TextDecoder;
  readonly #block = Buffer.allocUnsafe(64 * 1024);
  #position = UTF16_BOM_BYTES;
  #pending: Buffer = Buffer.alloc(0);
  #ended = false;

  constructor(fd: number, encoding: Utf16Encoding) {
    this.#fd = fd;
    this.#decoder = new TextDecoder(encoding, { ignoreBOM: true });
  }

  read(buf: Buffer, offset: number, length: number): number {
    while (this.#pending.length === 0 && !this.#ended) this.#decodeBlock();
    const n = Math.min(length, this.#pending.length);
    this.#pending.copy(buf, offset, 0, n);
    this.#pending = this.#pending.subarray(n);
    return n;
  }

  #decodeBlock(): void {
    const n = readSync(this.#fd, this.#block, 0, this.#block.length, this.#position);
    this.#position += n;
    if (n === 0) this.#ended = true;
    const text = n === 0 ? this.#decoder.decode() : this.#decoder.decode(this.#block.subarray(0, n), { stream: true });
    this.#pending = Buffer.from(text, 'utf8');
  }
}
