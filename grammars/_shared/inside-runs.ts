import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar } from '../../src/core/grammar.js';
import { type BenchRecord, runLastLine } from '../../src/core/records.js';
import { type LinesKept, remappedSink, remapRecord } from '../../src/core/remap-lines.js';

/** The lines of `skipped` among a run's lines (between the first and the last its values came from). */
export function insideRuns(skipped: readonly number[], records: readonly BenchRecord[]): number[] {
  const runs = records.flatMap((r) => (r.kind === 'run' ? [{ first: Math.min(r.at.line, ...Object.values(r.lines)), last: runLastLine(r) }] : []));
  return skipped.filter((n) => runs.some((r) => n > r.first && n < r.last));
}

/**
 * A grammar's records of a source read without some of its lines (`view`: withoutLines'), with them
 * and its diagnostics at their lines in the file, and the lines left out among a run's lines.
 */
export function parsedWithout(g: Grammar, view: LinesKept, sink: DiagnosticSink): { readonly records: BenchRecord[]; readonly within: number[] } {
  const records = g.parse(view.source, remappedSink(sink, view.lineOf)).map((r) => remapRecord(r, view.lineOf));
  return { records, within: insideRuns(view.dropped, records) };
}
