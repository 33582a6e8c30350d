import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { FlateErrorCode, Gunzip } from 'fflate';
import { BlockDecoder } from './byte-input.js';
import { DATA_ENDS_EARLY } from './gunzip.js';

/**
 * Compressed bytes passed to the decompressor at a time. Deflate expands a byte to at most about
 * a thousand, so what one block gives stays a few MB even for a gzip bomb.
 */
const BLOCK_BYTES = 8 * 1024;

/** A gzip member ends with the CRC-32 and the length (modulo 4 GiB) of its text. */
const TRAILER_BYTES = 8;

/**
 * Zero bytes after the last member that are padding, as gzip itself takes them (a tape's blocks,
 * a copy tool's): up to this many are looked at; past them the file is read as damaged.
 */
const MAX_PADDING_BYTES = 1024 * 1024;

/**
 * A gzip file's text, decompressed as it is read: a rotated server log of any size streams in
 * bounded memory (zlib in Node decompresses a stream only asynchronously, and the pipeline reads
 * synchronously). Members written one after another (`cat a.gz b.gz`, a log appended to with
 * `gzip >>`) are one text. Where the data ends early or is damaged, the text before is read and
 * `failure` says why it stops; a member whose text does not match its trailer's check sets
 * `damaged` (the decompressor does not check it).
 */
export class GunzipInput extends BlockDecoder {
  readonly #fd: number;
  readonly #size: number;
  readonly #block = Buffer.allocUnsafe(BLOCK_BYTES);
  readonly #gunzip: Gunzip;
  #position = 0;
  #out: ((bytes: Uint8Array) => void) | null = null;
  /** The current member's text so far: its CRC-32 and length. */
  #crc = 0;
  #length = 0;
  /** Why the text stops before the file's end, or null. */
  failure: string | null = null;
  /** A member's text does not match its trailer. */
  damaged = false;
  /** Text bytes decompressed so far. */
  textBytes = 0;
  /** The last member ended, and only zero padding follows it. */
  #padded = false;

  constructor(fd: number) {
    super();
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
    this.#gunzip = new Gunzip((data) => {
      this.textBytes += data.length;
      this.#crc = crc32(data, this.#crc);
      this.#length += data.length;
      this.#out?.(data);
    });
    // the member before the one found ends just before it
    this.#gunzip.onmember = (offset) => this.#checkMember(offset);
  }

  protected decodeBlock(out: (bytes: Uint8Array) => void): boolean {
    if (this.failure !== null || this.#padded) return false;
    const n = readSync(this.#fd, this.#block, 0, this.#block.length, this.#position);
    this.#position += n;
    this.#out = out;
    try {
      // a copy: the block is read into again while the decompressor may still hold what it was given
      this.#gunzip.push(new Uint8Array(this.#block.subarray(0, n)), n === 0);
    } catch (e) {
      // what follows the last member is no member: zero padding ends the text as the file's end would
      if (this.#endsInZeroPadding()) {
        this.#padded = true;
        return false;
      }
      this.failure = (e as { code?: unknown }).code === FlateErrorCode.UnexpectedEOF ? DATA_ENDS_EARLY : e instanceof Error ? e.message : String(e);
      return false;
    } finally {
      this.#out = null;
    }
    // a few zero bytes after the last member are not read as a member's start: the trailer is before them
    if (n === 0 && !this.#endsInZeroPadding()) this.#checkMember(this.#size);
    return n > 0;
  }

  /**
   * Does the member being read end before zero bytes that run to the file's end? Its trailer (the
   * CRC-32 and length of the text it gave) must end within the eight bytes after the file's last
   * byte that is not zero (its own last bytes may be zeros), and at least one zero must follow it.
   */
  #endsInZeroPadding(): boolean {
    const tail = Buffer.alloc(Math.min(this.#size, MAX_PADDING_BYTES + 2 * TRAILER_BYTES));
    const n = readSync(this.#fd, tail, 0, tail.length, this.#size - tail.length);
    let last = n - 1;
    while (last >= 0 && tail[last] === 0) last--;
    for (let end = Math.max(last + 1, TRAILER_BYTES); end <= Math.min(last + TRAILER_BYTES, n - 1); end++) {
      if (tail.readUInt32LE(end - TRAILER_BYTES) === this.#crc >>> 0 && tail.readUInt32LE(end - 4) === this.#length % 2 ** 32) return true;
    }
    return false;
  }

  /** Checks the member whose trailer ends at `end` against the text it gave; the next one starts afresh. */
  #checkMember(end: number): void {
    const trailer = Buffer.alloc(TRAILER_BYTES);
    const n = end >= TRAILER_BYTES ? readSync(this.#fd, trailer, 0, TRAILER_BYTES, end - TRAILER_BYTES) : 0;
    if (n < TRAILER_BYTES || trailer.readUInt32LE(0) !== this.#crc >>> 0 || trailer.readUInt32LE(4) !== this.#length % 2 ** 32) this.damaged = true;
    this.#crc = 0;
    this.#length = 0;
  }
}

/** What gunzipText read: the text (its first `maxBytes`), whether there is more, and what went wrong. */
export interface GunzippedText {
  readonly bytes: Buffer;
  /** The text goes on past `maxBytes`. */
  readonly more: boolean;
  readonly failure: string | null;
  readonly damaged: boolean;
}

/**
 * The text of a gzip file, decompressed as a stream: its first `maxBytes` (`more` when there is
 * more), and of a cut or damaged file the text before the damage.
 */
export function gunzipText(abs: string, maxBytes: number): GunzippedText {
  const fd = openSync(abs, 'r');
  try {
    const input = new GunzipInput(fd);
    const bytes = Buffer.allocUnsafe(Math.min(maxBytes + 1, 1024 * 1024));
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const n = input.read(bytes, 0, Math.min(bytes.length, maxBytes + 1 - total));
      if (n === 0) break;
      pieces.push(Buffer.from(bytes.subarray(0, n)));
      total += n;
      if (total > maxBytes) return { bytes: Buffer.concat(pieces, total).subarray(0, maxBytes), more: true, failure: null, damaged: input.damaged };
    }
    return { bytes: Buffer.concat(pieces, total), more: false, failure: input.failure, damaged: input.damaged };
  } finally {
    closeSync(fd);
  }
}
