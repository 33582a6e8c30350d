import type { TextSource } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import type { LineSink } from '../ingest/line-stream.js';

/**
 * Text kept at most from each end of a log for the grammars that read whole sources (their tokens
 * cost some 15 times the text, in a worker whose heap is 128 MB): its first lines (an echoed launch
 * command, within a server's start-up output) and its last (the result block a benchmark printed
 * when it finished; an idle server logs little after it).
 */
export const KEPT_LINES_MAX_CHARS = Object.freeze({ head: 512 * 1024, tail: 512 * 1024 });

/**
 * The lines of a streamed file that are passed on (all but the access and request-log lines the
 * server-log grammars skip and the stats lines they read), kept for the grammars that read whole
 * sources: a benchmark's result
 * blocks or a launch command tee'd into a server's log. Their line numbers are kept beside them.
 * Past the head's allowance the latest lines are kept, the tail's allowance of them; the lines in
 * between are dropped, and `dropped` says which.
 */
export class KeptLines implements LineSink {
  readonly #lines: string[] = [];
  readonly #numbers: number[] = [];
  #headChars = 0;
  /** Where the tail starts in #lines (the head is before it), and where its kept part starts. */
  #tailFrom = -1;
  #tailStart = 0;
  #tailChars = 0;
  /** The first and last line numbers dropped from the middle (0: none). */
  #firstDropped = 0;
  #lastDropped = 0;

  line(text: string, lineNo: number): void {
    const chars = text.length + 1;
    if (this.#tailFrom < 0) {
      if (this.#headChars + chars <= KEPT_LINES_MAX_CHARS.head) {
        this.#headChars += chars;
        this.#push(text, lineNo);
        return;
      }
      this.#tailFrom = this.#lines.length;
      this.#tailStart = this.#tailFrom;
    }
    this.#push(text, lineNo);
    this.#tailChars += chars;
    while (this.#tailChars > KEPT_LINES_MAX_CHARS.tail && this.#tailStart < this.#lines.length) this.#dropOldest();
  }

  get dropped(): { readonly first: number; readonly last: number } | null {
    return this.#firstDropped === 0 ? null : { first: this.#firstDropped, last: this.#lastDropped };
  }

  /** The kept lines, in order, as one source (line i+1 of it is line `lineOf(i+1)` of the file). */
  source(path: RelPath): TextSource {
    this.#compact();
    return { path, lines: this.#lines };
  }

  lineOf = (n: number): number => this.#numbers[n - 1] ?? this.#numbers.at(-1) ?? n;

  #push(text: string, lineNo: number): void {
    this.#lines.push(text);
    this.#numbers.push(lineNo);
  }

  #dropOldest(): void {
    const i = this.#tailStart++;
    this.#tailChars -= (this.#lines[i] as string).length + 1;
    this.#lastDropped = this.#numbers[i] as number;
    if (this.#firstDropped === 0) this.#firstDropped = this.#lastDropped;
    // now and then, not at every line: the dropped lines leave the arrays in one splice
    if (this.#tailStart - this.#tailFrom > 65_536) this.#compact();
  }

  #compact(): void {
    if (this.#tailFrom < 0 || this.#tailStart === this.#tailFrom) return;
    const count = this.#tailStart - this.#tailFrom;
    this.#lines.splice(this.#tailFrom, count);
    this.#numbers.splice(this.#tailFrom, count);
    this.#tailStart = this.#tailFrom;
  }
}
