import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';

/**
 * A gzip-compressed file (a rotated server log, `results.json.gz`) is read as its text, whole, up
 * to this much text; a larger server log is streamed (see GunzipInput), anything else not read.
 */
export const GUNZIP_MAX_BYTES = 64 * 1024 * 1024;

/** Deflate gives at most about this many bytes of text for a byte it stores (a run of one byte), with room for a header. */
export const MAX_DEFLATE_RATIO = 1100;

/** Why the text of a file cut short (or still being written) stops. */
export const DATA_ENDS_EARLY = 'the data ends early';

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

export type Gunzipped =
  | { readonly kind: 'text'; readonly bytes: Buffer }
  /** The data ends early (a file cut short, or still being written): its text up to there. */
  | { readonly kind: 'cut'; readonly bytes: Buffer; readonly reason: string }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * A gzip file's content, if it decompresses to at most `maxBytes`. gzip never grows what it
 * stores by more than a few bytes a block, so a file larger than that holds more and is not read.
 */
export function gunzipFile(abs: string, size: number, maxBytes: number): Gunzipped {
  if (size > maxBytes + maxBytes / 100 + 1024) return { kind: 'too-large' };
  const compressed = readFileSync(abs);
  try {
    // `info` gives the engine too (how many bytes it read), which Node's types do not say
    const { buffer, engine } = gunzipSync(compressed, { maxOutputLength: maxBytes, info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    // zlib stops without a word at a zero byte after a member, whatever follows it
    if (!zerosFrom(compressed, engine.bytesWritten)) return { kind: 'unreadable', reason: 'bytes after the last member that are neither a member nor zero padding' };
    return { kind: 'text', bytes: buffer };
  } catch (e) {
    if (isTooLarge(e)) return { kind: 'too-large' };
    const reason = e instanceof Error ? e.message : String(e);
    if ((e as { code?: string }).code !== 'Z_BUF_ERROR') return { kind: 'unreadable', reason };
    try {
      // what there is, as far as it goes
      return { kind: 'cut', bytes: gunzipSync(compressed, { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH }), reason: DATA_ENDS_EARLY };
    } catch (again) {
      return isTooLarge(again) ? { kind: 'too-large' } : { kind: 'unreadable', reason };
    }
  }
}

/** Whether every byte of `bytes` from `start` on is zero (what gzip takes for padding). */
function zerosFrom(bytes: Buffer, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

function isTooLarge(e: unknown): boolean {
  return e instanceof RangeError || (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
}
