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

/**
 * Applies a LineFilterSpec to the lines of one chunk, visited in order. The chunk is read as latin1
 * (one character per byte, so offsets are byte offsets, and UTF-8 literals are searched as their
 * bytes). Skip literals seen in the previous chunk are searched ahead, remembering where each next
 * occurs: a literal on every line (access lines) then costs one short search per line, and the
 * lines it covers never reach a regular expression. Every other line is searched for the anchors
 * (one regular expression, within the line's bounds) and only when it holds one for the remaining
 * skip literals, within the line too: a literal absent from the log costs nothing on the lines
 * already decided. Which literals go ahead changes only the cost, never the answer.
 */
export class ChunkLineFilter {
  readonly #skip: readonly string[];
  readonly #anchors: readonly string[] | null;
  readonly #anyAnchor: RegExp | null;
  /** Per skip literal: offset of its next occurrence in the chunk; -1: none left; -2: not searched. */
  readonly #skipNext: number[];
  /** Per skip literal: searched ahead in this chunk (it skipped a line in the previous one). */
  readonly #ahead: boolean[];
  /** Per skip literal: skipped a line in this chunk. */
  readonly #hit: boolean[];
  #text = '';
  #loaded = false;

  constructor(spec: LineFilterSpec) {
    const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
    this.#skip = spec.skip.map(latin1);
    this.#anchors = spec.anchors && spec.anchors.length > 0 ? spec.anchors.map(latin1) : null;
    this.#anyAnchor = this.#anchors ? new RegExp(this.#anchors.map(escapeRegExp).join('|')) : null;
    this.#skipNext = this.#skip.map(() => -2);
    this.#ahead = this.#skip.map(() => true);
    this.#hit = this.#skip.map(() => false);
  }

  /** Starts a new chunk (its bytes as latin1). */
  load(text: string): void {
    this.#text = text;
    for (let k = 0; k < this.#skip.length; k++) {
      if (this.#loaded) this.#ahead[k] = this.#hit[k] as boolean;
      this.#hit[k] = false;
      this.#skipNext[k] = -2;
    }
    this.#loaded = true;
  }

  /** Is the line [start, end) of the loaded chunk wanted? Lines must be asked about in order. */
  accepts(start: number, end: number): boolean {
    const text = this.#text;
    const skip = this.#skip;
    for (let k = 0; k < skip.length; k++) {
      if (!this.#ahead[k]) continue;
      let at = this.#skipNext[k] as number;
      if (at === -1) continue;
      if (at < start) {
        at = text.indexOf(skip[k] as string, start);
        this.#skipNext[k] = at;
        if (at < 0) continue;
      }
      if (at + (skip[k] as string).length <= end) {
        this.#hit[k] = true;
        return false;
      }
    }
    const line = text.slice(start, end);
    if (this.#anyAnchor !== null && !this.#anyAnchor.test(line)) return false;
    for (let k = 0; k < skip.length; k++) {
      if (!this.#ahead[k] && line.includes(skip[k] as string)) {
        this.#hit[k] = true;
        return false;
      }
    }
    return true;
  }

  /** The same question for a line outside the chunk (one that spanned two chunks), as latin1. */
  acceptsLine(line: string): boolean {
    return wantsLine({ skip: this.#skip, ...(this.#anchors ? { anchors: this.#anchors } : {}) }, line);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
