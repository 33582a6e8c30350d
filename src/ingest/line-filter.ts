import { ChunkLineFilter } from './js-line-filter.js';
import { KernelChunkFilter } from './kernel-line-filter.js';
import { kernelCanSkip, scanKernel } from './scan-kernel.js';

/**
 * Which lines of a streamed log are worth decoding: a line holding a `skip` substring (access and
 * request-log lines, the bulk of big server logs) is not; otherwise a line is when it holds an
 * anchor (or when there are no anchors). The same rule as `wantsLine` for whole-file reads, applied
 * to raw bytes.
 */
export interface LineFilterSpec {
  /** null: every line not skipped is wanted. */
  readonly anchors: readonly string[] | null;
  readonly skip: readonly string[];
}

/**
 * Finds the wanted lines of a chunk read into `chunk`: `load` a chunk, then `next()` moves from one
 * wanted complete line to the next. Both kinds answer exactly like `wantsLine`; only the cost differs.
 */
export interface ChunkFilter {
  /** Where the stream reads each chunk (CHUNK_BYTES at most). */
  readonly chunk: Buffer;
  /** The line the last successful `next()` found: [start, end) of the chunk, its newline at `end`. */
  readonly start: number;
  readonly end: number;
  /** Lines ended by the last call to `next()`: the ones passed over and the one found. */
  readonly passed: number;
  /** Where the chunk's unfinished last line starts (n when it ends with a newline), once `next()` returned false. */
  readonly rest: number;
  /** Starts on chunk[0, n); its first complete line starts at `from`. */
  load(n: number, from: number): void;
  /**
   * Moves to the next wanted line that ends in this chunk (its bounds in `start`/`end`); false when
   * no such line is left. Either way `passed` counts the newlines moved over, the found line's too.
   */
  next(): boolean;
  /** The same question for a line read outside the chunk (longer than a chunk, or the file's last, unended), as latin1. */
  acceptsLine(line: string): boolean;
}

/** The WebAssembly kernel when it can search the skip literals (the common case: server logs), else JavaScript. */
export function chunkFilter(spec: LineFilterSpec): ChunkFilter {
  const literals = spec.skip.map((s) => Buffer.from(s, 'utf8'));
  const kernel = kernelCanSkip(literals) ? scanKernel(literals) : null;
  return kernel !== null ? new KernelChunkFilter(spec, kernel) : new ChunkLineFilter(spec);
}
