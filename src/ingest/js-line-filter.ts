import { Latin1Rule } from './latin1-rule.js';
import type { ChunkFilter, LineFilterSpec } from './line-filter.js';
import { CHUNK_BYTES } from './scan-kernel.js';

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
