import type { DiagnosticSink } from './diagnostic.js';
import type { TextSource } from './grammar.js';
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

/** A source without some of its lines, where each line it keeps is in the original, and the line numbers left out. */
export interface LinesKept {
  readonly source: TextSource;
  readonly lineOf: (line: number) => number;
  /** The line numbers left out, ascending. */
  readonly dropped: readonly number[];
}

/** `source` without the lines `drop` picks (text, 0-based index); its last line keeps `unterminated` when kept. */
export function withoutLines(source: TextSource, drop: (text: string, index: number) => boolean): LinesKept {
  const lines: string[] = [];
  const numbers: number[] = [];
  const dropped: number[] = [];
  let overwritten: Map<number, string> | undefined;
  source.lines.forEach((text, i) => {
    if (drop(text, i)) dropped.push(i + 1);
    else {
      const head = source.overwritten?.get(i);
      if (head !== undefined) (overwritten ??= new Map()).set(lines.length, head);
      lines.push(text);
      numbers.push(i + 1);
    }
  });
  // its last line is the file's (and may be cut: TextSource.unterminated) when that is kept
  const last = dropped.at(-1) !== source.lines.length && source.unterminated === true;
  const kept: TextSource = { path: source.path, lines, ...(last ? { unterminated: true } : {}), ...(overwritten ? { overwritten } : {}) };
  return { source: kept, lineOf: (n) => numbers[n - 1] ?? numbers.at(-1) ?? n, dropped };
}
