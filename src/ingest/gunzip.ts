import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * A gzip-compressed file (a rotated server log, `results.json.gz`) is read as its text, whole, up
 * to this much text; a larger one is to be unpacked first (a stream of it would need zlib's
 * asynchronous API, and the pipeline reads a file synchronously).
 */
export const GUNZIP_MAX_BYTES = 64 * 1024 * 1024;

/** gzip's magic bytes. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The text size a gzip file's trailer states (its last member's, modulo 4 GiB): a guess before
 * decompressing, and no more (a cut file's last bytes are no trailer).
 */
export function statedGunzipSize(abs: string, size: number): number {
  if (size < 18) return 0;
  const trailer = Buffer.alloc(4);
  const fd = openSync(abs, 'r');
  try {
    readSync(fd, trailer, 0, 4, size - 4);
  } finally {
    closeSync(fd);
  }
  return trailer.readUInt32LE(0);
}

export type Gunzipped = { readonly kind: 'text'; readonly bytes: Buffer } | { readonly kind: 'too-large' } | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * A gzip file's content, if it decompresses to at most `maxBytes`. gzip never grows what it
 * stores by more than a few bytes a block, so a file larger than that holds more and is not read.
 */
export function gunzipFile(abs: string, size: number, maxBytes: number): Gunzipped {
  if (size > maxBytes + maxBytes / 100 + 1024) return { kind: 'too-large' };
  const compressed = readFileSync(abs);
  try {
    return { kind: 'text', bytes: gunzipSync(compressed, { maxOutputLength: maxBytes }) };
  } catch (e) {
    if (e instanceof RangeError || (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'too-large' };
    return { kind: 'unreadable', reason: e instanceof Error ? e.message : String(e) };
  }
}
