import { wantsLine } from '../core/grammar.js';

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

/** A skip literal's next occurrence not searched yet in the loaded chunk. */
const NOT_SEARCHED = -2;

/**
 * Walks the complete lines of one chunk and stops only at the lines a LineFilterSpec wants, so the
 * lines it does not want (nearly all of a big server log) cost no call, no string and no regular
 * expression: one newline search and about one skip-literal search each. The chunk is read as
 * latin1 (one character per byte, so offsets are byte offsets, and UTF-8 literals are searched as
 * their bytes).
 *
 * Skip literals seen in the previous chunk are searched ahead, remembering where each next occurs:
 * a literal on every line (access lines) then costs one short search per line. Every other line is
 * searched for the anchors (one regular expression, within the line) and only when it holds one
 * for the remaining skip literals: a literal absent from the log costs nothing on the lines already
 * decided. Which literals go ahead changes only the cost, never the answer.
 */
export class ChunkLineFilter {
  /** The line the last successful `next()` found: [start, end) of the chunk, its newline at `end`. */
  start = 0;
  end = 0;
  /** Lines ended by the last call to `next()`: the ones passed over and the one found. */
  passed = 0;
  readonly #skip: readonly string[];
  readonly #anchors: readonly string[] | null;
  readonly #anyAnchor: RegExp | null;
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
    const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
    this.#skip = spec.skip.map(latin1);
    this.#anchors = spec.anchors && spec.anchors.length > 0 ? spec.anchors.map(latin1) : null;
    this.#anyAnchor = this.#anchors ? new RegExp(this.#anchors.map(escapeRegExp).join('|')) : null;
    this.#skipNext = new Int32Array(this.#skip.length).fill(NOT_SEARCHED);
    this.#ahead = new Uint8Array(this.#skip.length).fill(1);
    this.#hit = new Uint8Array(this.#skip.length);
  }

  /** Starts a new chunk (its bytes as latin1); its first complete line starts at `from`. */
  load(text: string, from: number): void {
    this.#text = text;
    this.#pos = from;
    if (this.#loaded) this.#ahead.set(this.#hit);
    this.#hit.fill(0);
    this.#skipNext.fill(NOT_SEARCHED);
    this.#loaded = true;
  }

  /**
   * Moves to the next wanted line that ends in this chunk (its bounds in `start`/`end`); false when
   * no such line is left. Either way `passed` counts the newlines moved over, the found line's too.
   */
  next(): boolean {
    const text = this.#text;
    const skip = this.#skip;
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

  /** Where the chunk's unfinished last line starts (its length when the chunk ends with a newline), once `next()` returned false. */
  get rest(): number {
    return this.#pos;
  }

  /** The same question for a line outside the chunk (one that spanned two chunks), as latin1. */
  acceptsLine(line: string): boolean {
    return wantsLine({ skip: this.#skip, ...(this.#anchors ? { anchors: this.#anchors } : {}) }, line);
  }

  /** A line no ahead-searched literal skipped: does it hold an anchor and none of the other literals? */
  #wantsUnskipped(text: string, start: number, end: number): boolean {
    const line = text.slice(start, end);
    if (this.#anyAnchor !== null && !this.#anyAnchor.test(line)) return false;
    const skip = this.#skip;
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
