import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { RelPath } from '../../../src/core/types.js';
import type { TypedLine } from '../../../src/parse/chevrotain.js';

/** A result printed as a first line and the lines of its statistics below it. */
export interface ResultLines {
  readonly head: TypedLine;
  readonly lines: readonly TypedLine[];
  /** Its last line (1-based). */
  readonly last: number;
}

/**
 * Results of a format that prints a first line and then one line per statistic (`Avg latency:` then
 * percentiles): a statistic belongs to the result above it, up to the next first line, even with
 * lines interleaved (a tee'd log). One the result already has is a `block/duplicate-label` (the
 * first is kept: the first line of the next result may have been lost); one above every first
 * line is counted in one `parse/unrecognized-lines`.
 * `keyOf` names the statistic a line holds.
 */
export function groupResults(
  lines: readonly TypedLine[],
  isHead: (l: TypedLine) => boolean,
  keyOf: (l: TypedLine) => string,
  file: RelPath,
  sink: DiagnosticSink,
): ResultLines[] {
  const results: ResultLines[] = [];
  let open: { head: TypedLine; lines: TypedLine[]; keys: Set<string>; last: number } | null = null;
  let strays = 0;
  let firstStray = 0;
  for (const l of lines) {
    if (isHead(l)) {
      if (open) results.push(open);
      open = { head: l, lines: [], keys: new Set(), last: l.line };
      continue;
    }
    const key = keyOf(l);
    if (!open) {
      if (strays++ === 0) firstStray = l.line;
      continue;
    }
    if (open.keys.has(key)) {
      sink.report('block/duplicate-label', { file, line: l.line, column: 1 }, l.text.slice(0, l.text.indexOf(':')).trim());
      continue;
    }
    open.keys.add(key);
    open.lines.push(l);
    open.last = l.line;
  }
  if (open) results.push(open);
  if (strays > 0) sink.report('parse/unrecognized-lines', { file, line: firstStray, column: 1 }, strays);
  return results.map((r) => ({ head: r.head, lines: r.lines, last: r.last }));
}
