import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { withoutLines } from '../../src/core/remap-lines.js';
import { detectingOn, headCleaner } from './clean-head.js';
import { parsedWithout } from './inside-runs.js';
import { INTERLEAVED_LINE, INTERLEAVED_PATTERN, overwroteOutput } from './interleaved-line.js';
import { isDescribedBar, mayHoldDescribedBar } from './serving-block/tokens.js';
import { readingAcrossTableGaps } from './table-gaps.js';

/**
 * INTERLEAVED_PATTERN tried at one line start of a text (`lastIndex`), without taking the line out.
 * Its spaces never span a line break: `^\s*` would scan from every line start of a text of blank
 * lines to its end.
 */
const INTERLEAVED_LINE_AT = new RegExp(INTERLEAVED_PATTERN.source.replaceAll('\\s', '[^\\S\\n]'), 'my');

/**
 * Whether any line of a text is one INTERLEAVED_LINE matches, before any line is split off. Tried
 * at each line start: one multi-line search tried every character of a one-line result JSON. A
 * bar with a description is looked for only in a text that holds a bar's mark.
 */
function anyInterleavedLine(text: string): boolean {
  for (let at = 0; at < text.length; ) {
    INTERLEAVED_LINE_AT.lastIndex = at;
    if (INTERLEAVED_LINE_AT.test(text)) return true;
    const end = text.indexOf('\n', at);
    if (end < 0) break;
    at = end + 1;
  }
  return mayHoldDescribedBar(text) && text.split('\n').some(isDescribedBar);
}

/** A head without its interleaved lines (the same string when it has none). */
const withoutInterleavedLines = headCleaner((head) =>
  anyInterleavedLine(head)
    ? head
        .split('\n')
        .filter((line) => !INTERLEAVED_LINE.test(line))
        .join('\n')
    : head,
);

/**
 * A grammar of a load generator's console output that reads it without the lines another process
 * wrote into it (INTERLEAVED_LINE: a server's log lines when `tee` or a shared terminal mixed the two,
 * progress bars): they cannot break a table, a summary or its detection. Detection sees the head
 * without them; the records and diagnostics are at their lines in the file, and the lines left out
 * among a run's lines are counted (`block/interleaved-line`); blank lines written into a table, and
 * lines of text in a box-drawing one, are read across too (readingAcrossTableGaps). Only for grammars that read no such
 * line themselves (vLLM's offline benchmarks read their in-process engine's logged arguments,
 * trtllm-bench prints its report through its logger).
 */
export function readingPastInterleavedLines(g: Grammar): Grammar {
  // the tables' gaps are looked for in the text without those lines: no line is tested twice
  const inner = readingAcrossTableGaps(g, () => false);
  return {
    ...inner,
    detect: detectingOn(g, withoutInterleavedLines),
    parse(source: TextSource, sink: DiagnosticSink) {
      const view = withoutLines(source, (text) => INTERLEAVED_LINE.test(text));
      if (view.dropped.length === 0) return inner.parse(source, sink);
      const { records, within } = parsedWithout(inner, view, sink);
      if (within.length > 0) sink.report('block/interleaved-line', { file: source.path, line: within[0] as number, column: 1 }, within.length);
      // a progress bar drawn over the client's own text (TextSource.overwritten): that text is lost, not skipped
      for (const n of within) if (overwroteOutput(source.overwritten?.get(n - 1))) sink.report('block/overwritten-line', { file: source.path, line: n, column: 1 });
      return records;
    },
  };
}
