import type { TextSource } from '../core/grammar.js';
import type { RelPath } from '../core/types.js';
import type { LineSink } from '../ingest/line-stream.js';

/**
 * The kept lines are handed on in windows of about this much text: what one parse by the
 * grammars that read whole sources holds at once (their tokens cost some 15 times the text, in a
 * worker whose heap is 128 MB), whatever the log's length.
 */
export const KEPT_WINDOW_CHARS = 1024 * 1024;
/**
 * Consecutive windows share this much text: a window owns the records and diagnostics that start
 * in its middle, so each of them is parsed with at least half of this before and after it (the
 * comment or command above a result block, the block's own lines), and the record cut at a
 * window's edge is the neighbour's, read whole there.
 */
export const KEPT_OVERLAP_CHARS = 256 * 1024;

/** Some consecutive kept lines, read by the grammars as if they were the whole file. */
export interface KeptWindow {
  readonly source: TextSource;
  /** Line n of `source` is line lineOf(n) of the file. */
  readonly lineOf: (line: number) => number;
  /** The file lines this window owns: a record or diagnostic found at a line in [from, to) is kept. */
  readonly from: number;
  readonly to: number;
  /** Its lines no line grammar wanted, for detection ('' when none): see foreign-claims.ts. */
  readonly foreignText: string;
}

/**
 * The lines of a streamed file that are passed on (all but the access and request-log lines the
 * server-log grammars skip and the stats lines they read), for the grammars that read whole
 * sources: a benchmark's result blocks or a launch command tee'd into a server's log. They go to
 * `onWindow` in overlapping windows as they come (see KEPT_OVERLAP_CHARS), the last at `finish`,
 * so memory holds one window whatever the log's length and no part of it goes unread. A log with
 * less than a window of such lines is one window, which owns every line, as a whole read.
 */
export class KeptLines implements LineSink {
  readonly #path: RelPath;
  readonly #onWindow: (window: KeptWindow) => void;
  #lines: string[] = [];
  #numbers: number[] = [];
  /** Per line: no line grammar wanted it. */
  #foreign: boolean[] = [];
  /** By file line number: the text a kept line began with before a redraw took its place (TextSource.overwritten). */
  #overwritten: Map<number, string> | null = null;
  #chars = 0;
  #from = 0;

  constructor(path: RelPath, onWindow: (window: KeptWindow) => void) {
    this.#path = path;
    this.#onWindow = onWindow;
  }

  /** `foreign`: no line grammar wanted the line (it is what detection reads, see KeptWindow). */
  line(text: string, lineNo: number, foreign = false, overwritten?: string): void {
    // a full window is handed on when a line follows it: the file's last line is the last window's alone
    if (this.#chars >= KEPT_WINDOW_CHARS) this.#flush();
    this.#lines.push(text);
    this.#numbers.push(lineNo);
    this.#foreign.push(foreign);
    this.#chars += text.length + 1;
    if (overwritten !== undefined) (this.#overwritten ??= new Map()).set(lineNo, overwritten);
  }

  /**
   * The last window (every line to the end is its own; one is handed on even when no line was
   * kept). `cutLine`: the line the file ends inside (cutLineOf), its source's `unterminated` when
   * that is its last line.
   */
  finish(cutLine: number | null = null): void {
    this.#emit(Number.POSITIVE_INFINITY, cutLine !== null && this.#numbers.at(-1) === cutLine);
    this.#lines = [];
    this.#numbers = [];
    this.#foreign = [];
    this.#overwritten = null;
    this.#chars = 0;
  }

  /**
   * A full window: it owns its lines up to the first that starts half an overlap or less from its
   * end; the next window starts with the line that holds the point an overlap from its end (not
   * with its first line: a window that long starts after it, with less context).
   */
  #flush(): void {
    const lines = this.#lines;
    const total = this.#chars;
    let boundary = lines.length;
    let next = 1;
    let before = 0;
    for (let i = 0; i < lines.length; i++) {
      if (before <= total - KEPT_OVERLAP_CHARS && i > 0) next = i;
      if (before >= total - KEPT_OVERLAP_CHARS / 2) {
        boundary = i;
        break;
      }
      before += (lines[i] as string).length + 1;
    }
    const numbers = this.#numbers;
    const to = boundary < numbers.length ? (numbers[boundary] as number) : (numbers.at(-1) as number) + 1;
    this.#emit(to);
    let dropped = 0;
    for (let i = 0; i < next; i++) dropped += (lines[i] as string).length + 1;
    this.#lines = lines.slice(next);
    this.#numbers = numbers.slice(next);
    this.#foreign = this.#foreign.slice(next);
    const first = this.#numbers[0] ?? Number.POSITIVE_INFINITY;
    if (this.#overwritten) for (const lineNo of this.#overwritten.keys()) if (lineNo < first) this.#overwritten.delete(lineNo);
    this.#chars = total - dropped;
    this.#from = to;
  }

  /** The window's TextSource.overwritten (by its line indexes), or nothing when none of its lines has one. */
  #overwrittenOf(numbers: readonly number[]): { overwritten?: ReadonlyMap<number, string> } {
    if (this.#overwritten === null || this.#overwritten.size === 0) return {};
    const byIndex = new Map<number, string>();
    numbers.forEach((lineNo, i) => {
      const text = this.#overwritten?.get(lineNo);
      if (text !== undefined) byIndex.set(i, text);
    });
    return byIndex.size === 0 ? {} : { overwritten: byIndex };
  }

  #emit(to: number, unterminated = false): void {
    const numbers = this.#numbers;
    const lineOf = (n: number): number => numbers[n - 1] ?? numbers.at(-1) ?? n;
    const foreign = this.#foreign;
    // as a whole read's (foreignClaimsOf): without empty lines
    const foreignText = this.#lines.filter((line, i) => foreign[i] && line !== '').join('\n');
    const source = { path: this.#path, lines: this.#lines, ...(unterminated ? { unterminated } : {}), ...this.#overwrittenOf(numbers) };
    this.#onWindow({ source, lineOf, from: this.#from, to, foreignText });
  }
}
