import type { TextSource } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import type { LineSink } from '../ingest/line-stream.js';

/** Text kept at most, for grammars that read a streamed log's other lines (a token per value costs some 15 times the text). */
export const KEPT_LINES_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The lines of a streamed file that are passed on (all but the access and request-log lines the
 * server-log grammars skip), kept for the grammars that read whole sources: a benchmark's result
 * block or a launch command tee'd into a server's log. Their line numbers are kept beside them.
 */
export class KeptLines implements LineSink {
  readonly lines: string[] = [];
  readonly numbers: number[] = [];
  #chars = 0;
  /** The first line not kept because the limit was reached, or 0. */
  stoppedAt = 0;

  line(text: string, lineNo: number): void {
    if (this.stoppedAt > 0) return;
    if (this.#chars + text.length > KEPT_LINES_MAX_CHARS) {
      this.stoppedAt = lineNo;
      return;
    }
    this.#chars += text.length + 1;
    this.lines.push(text);
    this.numbers.push(lineNo);
  }

  source(path: RelPath): TextSource {
    return { path, lines: this.lines };
  }

  /** Line `n` of the kept lines as a line of the file. */
  lineOf = (n: number): number => this.numbers[n - 1] ?? this.numbers.at(-1) ?? n;
}
