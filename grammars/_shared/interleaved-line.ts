import { stripEmbedding } from '../../src/parse/embedding.js';
import type { LinePattern } from '../../src/parse/chevrotain.js';
import { isDescribedBar, LOG_LINE, PLAIN_BAR } from './serving-block/tokens.js';

/** INTERLEAVED_LINE as one pattern, but for a bar with a description (isDescribedBar), which looks for its mark first. */
export const INTERLEAVED_PATTERN = new RegExp(`${LOG_LINE.source}|${PLAIN_BAR.source}|^Traceback \\(most recent call last\\):\\s*$`);

/**
 * A line another process wrote into a benchmark's output while it printed a table or a report
 * (`tee` of a server and its client to one file, a shared terminal): a server's log line (as the
 * serving block reads them, Python's `logging` and a warning's first line among them), a progress
 * bar (`45%|████▌     | 9/20 [00:04<00:05]`, or with a description, `Capturing CUDA graphs: 100%|…`;
 * its redraws already cleaned to their last) or the first line of a Python traceback. A table or report is
 * read past such lines, which are counted.
 */
export const INTERLEAVED_LINE: LinePattern = { test: (line) => INTERLEAVED_PATTERN.test(line) || isDescribedBar(line) };

/**
 * A file's first line: its first with text that no other process wrote (a server's log line tee'd
 * before it): what says which kind of file it is.
 */
export function firstFileLine(lines: readonly string[]): string {
  return lines.find((l) => l.trim() !== '' && !INTERLEAVED_LINE.test(l)) ?? '';
}

/**
 * Where the first line of `text` from `offset` on that is neither blank nor interleaved starts
 * (`text.length` when none is): at most `maxLines` such lines are passed.
 */
export function pastBlankAndInterleavedLines(text: string, offset: number, maxLines: number): number {
  let at = offset;
  for (let n = 0; n < maxLines && at < text.length; n++) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    if (line.trim() !== '' && !INTERLEAVED_LINE.test(line)) return at;
    at = end < 0 ? text.length : end + 1;
  }
  return at;
}

/**
 * Whether the text a `\r` redraw took the place of (TextSource.overwritten) was the output's own:
 * not blank (past a quote marker or a capture's prefix), not a progress bar drawn over another, not
 * another process's line. One rule for all who read it: the serving blocks join such text to its
 * line's rest, and elsewhere it is said to be lost.
 */
export function overwroteOutput(head: string | undefined): boolean {
  if (head === undefined) return false;
  const text = stripEmbedding(head);
  return text !== '' && !INTERLEAVED_LINE.test(text);
}

/**
 * The lines strictly between lines `from` and `to` (1-based) of `lines` (quote and comment markers
 * peeled): those another process wrote (INTERLEAVED_LINE), and how many others there are.
 */
export function linesBetween(lines: readonly string[], from: number, to: number): { readonly interleaved: number[]; readonly own: number } {
  const interleaved: number[] = [];
  let own = 0;
  for (let n = from + 1; n < to; n++) {
    if (INTERLEAVED_LINE.test(stripEmbedding(lines[n - 1] ?? ''))) interleaved.push(n);
    else own++;
  }
  return { interleaved, own };
}
