import { wantsLine } from '../core/grammar.js';
import { CHUNK_BYTES, kernelCanSkip, type ScanKernel, scanKernel } from './scan-kernel.js';

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
  /** The same question for a line outside the chunk (one that spanned two chunks), as latin1. */
  acceptsLine(line: string): boolean;
}

/** The WebAssembly kernel when it can search the skip literals (the common case: server logs), else JavaScript. */
export function chunkFilter(spec: LineFilterSpec): ChunkFilter {
  const literals = spec.skip.map((s) => Buffer.from(s, 'utf8'));
  const kernel = kernelCanSkip(literals) ? scanKernel(literals) : null;
  return kernel !== null ? new KernelChunkFilter(spec, kernel) : new ChunkLineFilter(spec);
}

/** The spec with its literals as latin1 (one character per byte), as chunks are searched. */
class Latin1Rule {
  readonly skip: readonly string[];
  readonly anchors: readonly string[] | null;
  readonly anyAnchor: RegExp | null;
  readonly #asGrammar: Parameters<typeof wantsLine>[0];

  constructor(spec: LineFilterSpec) {
    const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
    this.skip = spec.skip.map(latin1);
    this.anchors = spec.anchors && spec.anchors.length > 0 ? spec.anchors.map(latin1) : null;
    this.anyAnchor = this.anchors ? new RegExp(this.anchors.map(escapeRegExp).join('|')) : null;
    this.#asGrammar = { skip: this.skip, ...(this.anchors ? { anchors: this.anchors } : {}) };
  }

  acceptsLine(line: string): boolean {
    return wantsLine(this.#asGrammar, line);
  }
}

/**
 * The kernel (src/ingest/scan-kernel.ts) drops the lines holding a skip literal without a string or
 * a call for any of them; the lines it keeps (few, in an access-heavy log) are searched for anchors
 * here. When it keeps many, the chunk is made a string once and the lines are slices of it.
 */
class KernelChunkFilter implements ChunkFilter {
  start = 0;
  end = 0;
  passed = 0;
  readonly chunk: Buffer;
  readonly #rule: Latin1Rule;
  readonly #kernel: ScanKernel;
  #n = 0;
  #kept = 0;
  #k = 0;
  /** Index (newlines from `from`) of the last line found; -1 before the first. */
  #last = -1;
  #text: string | null = null;

  constructor(spec: LineFilterSpec, kernel: ScanKernel) {
    this.#rule = new Latin1Rule(spec);
    this.#kernel = kernel;
    this.chunk = kernel.chunk;
  }

  load(n: number, from: number): void {
    this.#n = n;
    this.#kept = this.#kernel.scan(from, n);
    this.#k = 0;
    this.#last = -1;
    this.#text = null;
  }

  next(): boolean {
    const kernel = this.#kernel;
    const anyAnchor = this.#rule.anyAnchor;
    while (this.#k < this.#kept) {
      const k = this.#k++;
      const start = kernel.start(k);
      const end = kernel.end(k);
      if (anyAnchor !== null && !anyAnchor.test(this.#latin1(start, end))) continue;
      const index = kernel.index(k);
      this.passed = index - this.#last;
      this.#last = index;
      this.start = start;
      this.end = end;
      return true;
    }
    this.passed = kernel.lines - 1 - this.#last;
    this.#last = kernel.lines - 1;
    return false;
  }

  get rest(): number {
    return this.#kernel.rest;
  }

  acceptsLine(line: string): boolean {
    return this.#rule.acceptsLine(line);
  }

  #latin1(start: number, end: number): string {
    if (this.#kept <= 16) return this.chunk.toString('latin1', start, end);
    this.#text ??= this.chunk.toString('latin1', 0, this.#n);
    return this.#text.slice(start, end);
  }
}

/** A skip literal's next occurrence not searched yet in the loaded chunk. */
const NOT_SEARCHED = -2;

/**
 * The JavaScript filter, for literal sets the kernel does not take (none, or unusual ones): walks
 * the complete lines of a chunk and stops only at the lines it wants, so the lines it does not want
 * cost no call, no string and no regular expression: one newline search and about one skip-literal
 * search each. The chunk is read as latin1 (one character per byte, so offsets are byte offsets,
 * and UTF-8 literals are searched as their bytes).
 *
 * Skip literals seen in the previous chunk are searched ahead, remembering where each next occurs:
 * a literal on every line (access lines) then costs one short search per line. Every other line is
 * searched for the anchors (one regular expression, within the line) and only when it holds one
 * for the remaining skip literals: a literal absent from the log costs nothing on the lines already
 * decided. Which literals go ahead changes only the cost, never the answer.
 */
export class ChunkLineFilter implements ChunkFilter {
  start = 0;
  end = 0;
  passed = 0;
  readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  readonly #rule: Latin1Rule;
  /** Per skip literal: offset of its next occurrence in the chunk; -1: none left; NOT_SEARCHED. */
  readonly #skipNext: Int32Array;
  /** Per skip literal: searched ahead in this chunk (1: it skipped a line in the previous one). */
  readonly #ahead: Uint8Array;
  /** Per skip literal: skipped a line in this chunk. */
  readonly #hit: Uint8Array;
  #text = '';
  #pos = 0;
  #loaded = false;

  constructor(spec: LineFilterSpec) {
    this.#rule = new Latin1Rule(spec);
    const count = this.#rule.skip.length;
    this.#skipNext = new Int32Array(count).fill(NOT_SEARCHED);
    this.#ahead = new Uint8Array(count).fill(1);
    this.#hit = new Uint8Array(count);
  }

  load(n: number, from: number): void {
    this.#text = this.chunk.toString('latin1', 0, n);
    this.#pos = from;
    if (this.#loaded) this.#ahead.set(this.#hit);
    this.#hit.fill(0);
    this.#skipNext.fill(NOT_SEARCHED);
    this.#loaded = true;
  }

  next(): boolean {
    const text = this.#text;
    const skip = this.#rule.skip;
    const skipNext = this.#skipNext;
    const ahead = this.#ahead;
    let pos = this.#pos;
    let passed = 0;
    lines: for (;;) {
      const end = text.indexOf('\n', pos);
      if (end < 0) break;
      passed++;
      const start = pos;
      pos = end + 1;
      for (let k = 0; k < skip.length; k++) {
        if (ahead[k] === 0) continue;
        let at = skipNext[k] as number;
        if (at === -1) continue;
        if (at < start) {
          at = text.indexOf(skip[k] as string, start);
          skipNext[k] = at;
          if (at < 0) continue;
        }
        if (at + (skip[k] as string).length <= end) {
          this.#hit[k] = 1;
          continue lines;
        }
      }
      if (this.#wantsUnskipped(text, start, end)) {
        this.start = start;
        this.end = end;
        this.#pos = pos;
        this.passed = passed;
        return true;
      }
    }
    this.#pos = pos;
    this.passed = passed;
    return false;
  }

  get rest(): number {
    return this.#pos;
  }

  acceptsLine(line: string): boolean {
    return this.#rule.acceptsLine(line);
  }

  /** A line no ahead-searched literal skipped: does it hold an anchor and none of the other literals? */
  #wantsUnskipped(text: string, start: number, end: number): boolean {
    const line = text.slice(start, end);
    if (this.#rule.anyAnchor !== null && !this.#rule.anyAnchor.test(line)) return false;
    const skip = this.#rule.skip;
    for (let k = 0; k < skip.length; k++) {
      if (this.#ahead[k] === 0 && line.includes(skip[k] as string)) {
        this.#hit[k] = 1;
        return false;
      }
    }
    return true;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
