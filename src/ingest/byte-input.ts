import { readSync } from 'node:fs';

/** Where a stream's bytes come from: a file as it is, or decoded (see GunzipInput, Utf16AsUtf8). */
export interface ByteInput {
  /** Fills buf[offset, offset + length) from the next bytes; 0 only at the end. */
  read(buf: Buffer, offset: number, length: number): number;
}

/** A file's bytes as they are, from its current position. */
export function plainInput(fd: number): ByteInput {
  return { read: (buf, offset, length) => readSync(fd, buf, offset, length, null) };
}

/**
 * Bytes decoded a block at a time (see GunzipInput, Utf16AsUtf8): what a block gave is handed out
 * over as many reads as the caller makes of it.
 */
export abstract class BlockDecoder implements ByteInput {
  #pending: Uint8Array[] = [];
  #first = 0;
  #offset = 0;
  #ended = false;

  read(buf: Buffer, offset: number, length: number): number {
    while (this.#first === this.#pending.length && !this.#ended) {
      this.#pending = [];
      this.#first = 0;
      this.#ended = !this.decodeBlock((bytes) => {
        if (bytes.length > 0) this.#pending.push(bytes);
      });
    }
    let n = 0;
    while (n < length && this.#first < this.#pending.length) {
      const block = this.#pending[this.#first] as Uint8Array;
      const take = Math.min(length - n, block.length - this.#offset);
      buf.set(block.subarray(this.#offset, this.#offset + take), offset + n);
      n += take;
      this.#offset += take;
      if (this.#offset === block.length) {
        this.#first++;
        this.#offset = 0;
      }
    }
    return n;
  }

  /** Decodes the next block, passing what it gives to `out`; false at the end (it may still have given some). */
  protected abstract decodeBlock(out: (bytes: Uint8Array) => void): boolean;
}
