import type { DiagnosticSink } from './diagnostic.js';
import type { BenchRecord } from './records.js';
import { remapSeries } from './timeline-series.js';
import { setCell } from './cells.js';

/**
 * Records and diagnostics of a grammar that read some lines of a file as if they were the whole
 * file (line i+1 of what it read is line `lineOf(i+1)` of the file): every line number is mapped back.
 */
export function remapRecord(record: BenchRecord, lineOf: (line: number) => number): BenchRecord {
  const at = { ...record.at, line: lineOf(record.at.line) };
  if (record.kind === 'failure') return { ...record, at };
  if (record.kind === 'timeline') return { ...record, at, series: remapSeries(record.series, lineOf) };
  const lines: Record<string, number> = {};
  for (const [column, line] of Object.entries(record.lines)) setCell(lines, column, lineOf(line));
  if (record.kind === 'run' && record.lastLine !== undefined) return { ...record, at, lines, lastLine: lineOf(record.lastLine) };
  return { ...record, at, lines };
}

export function remappedSink(sink: DiagnosticSink, lineOf: (line: number) => number): DiagnosticSink {
  return {
    report(code, at, ...args) {
      // no message names a line in its text: the position says where
      sink.report(code, { ...at, line: lineOf(at.line) }, ...args);
    },
  };
}
