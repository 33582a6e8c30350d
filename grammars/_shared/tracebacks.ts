import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { withoutLines } from '../../src/core/remap-lines.js';
import { TRACEBACK_START, tracebackLines } from '../../src/ingest/python-tracebacks.js';
import { detectingOn, headCleaner } from './clean-head.js';
import { parsedWithout } from './inside-runs.js';

/** The traceback lines of each source's lines (the grammars claiming a file read the same array in turn). */
const FOUND = new WeakMap<readonly string[], ReadonlySet<number>>();

function tracebacksOf(lines: readonly string[]): ReadonlySet<number> {
  let found = FOUND.get(lines);
  if (!found) FOUND.set(lines, (found = new Set(tracebackLines(lines))));
  return found;
}

/** A head without the tracebacks in it (the same string when it has none). */
const withoutTracebacks = headCleaner((head) => {
  if (!head.includes(TRACEBACK_START)) return head;
  const lines = head.split('\n');
  const found = new Set(tracebackLines(lines));
  return found.size === 0 ? head : lines.filter((_, i) => !found.has(i)).join('\n');
});

/**
 * A grammar of whole sources that detects and reads them without the Python tracebacks another
 * process wrote into them (src/ingest/python-tracebacks.ts: a server crashing while a benchmark
 * printed its results): a traceback's frames, code and exception line are more lines of text than
 * any table or block is read across, or than detection allows between a title and its table. Its
 * records and diagnostics are at their lines in the file, and the lines left out among a run's
 * lines are counted (`block/interleaved-line`). The server grammars, which read tracebacks as
 * crashes, read lines one by one and are not wrapped.
 */
export function readingPastTracebacks(g: Grammar): Grammar {
  return {
    ...g,
    detect: detectingOn(g, withoutTracebacks),
    parse(source: TextSource, sink: DiagnosticSink) {
      const found = tracebacksOf(source.lines);
      if (found.size === 0) return g.parse(source, sink);
      const { records, within } = parsedWithout(g, withoutLines(source, (_, i) => found.has(i)), sink);
      if (within.length > 0) sink.report('block/interleaved-line', { file: source.path, line: within[0] as number, column: 1 }, within.length);
      return records;
    },
  };
}
