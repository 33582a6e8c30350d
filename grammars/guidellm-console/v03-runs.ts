import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { readCell } from './cell-value.js';
import { parseStrategyLabel, type StrategyLabel } from './strategy-label.js';
import { BAR_TABLE_TITLES, barColumnTarget } from './v03-columns.js';
import type { BarReport, KnownBarTable } from './v03-reports.js';
import { isWhole, type BarTableLine } from './v03-table.js';

type At = (line: number) => { file: TextSource['path']; line: number; column: number };

/** One benchmark's row of a table: its label read, and whether the row has all its cells. */
interface BenchmarkRow {
  readonly row: BarTableLine;
  readonly label: string;
  readonly labelLine: number;
  readonly load: StrategyLabel;
  /** `constant@5.00#1`: the label and how many rows with that label come before it in its table. */
  readonly key: string;
  readonly whole: boolean;
}

/**
 * The runs of one 0.2 / 0.3 report: one per benchmark, its row of Benchmarks Stats joined with its
 * row of Benchmarks Info. GuideLLM prints the benchmarks in the same order in both, each labelled
 * by its strategy and load (`constant@5.00`): rows meet by their label, the k-th row with a label
 * in one table with the k-th with it in the other (a sweep may run a rate twice). A table cut
 * short, or a report with Info and no Stats after it, leaves its runs partial; a row with no row
 * of its benchmark in the other (whole) table is said to be alone.
 */
export function barReportRuns(report: BarReport, label: string | null, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at: At = (line) => ({ file: source.path, line, column: 1 });
  const { info, stats } = report;
  for (const t of [info, stats]) if (t) reportTableEnd(t, at, sink);
  const noStats = info !== null && stats === null;
  // (an Info table cut short says so itself)
  if (noStats && info.table.closed) sink.report('block/truncated', at(report.line), 'no Benchmarks Stats table after the Benchmarks Info');
  const infoRows = info ? benchmarkRows(info, at, sink) : [];
  const statsRows = stats ? benchmarkRows(stats, at, sink) : [];
  const statsByKey = new Map(statsRows.map((r) => [r.key, r]));
  const infoKeys = new Set(infoRows.map((r) => r.key));
  const pairs: Array<readonly [BenchmarkRow | null, BenchmarkRow | null]> = [
    ...infoRows.map((r) => [r, statsByKey.get(r.key) ?? null] as const),
    ...statsRows.filter((r) => !infoKeys.has(r.key)).map((r) => [null, r] as const),
  ];
  const complete = (t: KnownBarTable | null): boolean => t === null || t.table.closed;
  const whole = !noStats && complete(info) && complete(stats);
  return pairs.map(([i, s]) => {
    // alone in a whole table beside a whole table: a row the other lacks (a table cut short says so itself)
    if (i && !s && stats && whole) sink.report('table/unmatched-row', at(i.row.line), i.label, BAR_TABLE_TITLES.info, BAR_TABLE_TITLES.stats);
    if (s && !i && info && whole) sink.report('table/unmatched-row', at(s.row.line), s.label, BAR_TABLE_TITLES.stats, BAR_TABLE_TITLES.info);
    const rows = [i, s].filter((r): r is BenchmarkRow => r !== null);
    const first = rows[0] as BenchmarkRow;
    const builder = new FieldMapBuilder();
    addLoad(builder, first);
    for (const r of rows) addCells(builder, r.row, (r === i ? info : stats) as KnownBarTable, at, sink);
    if (report.model) builder.set('model', report.model.value, report.model.line);
    builder.set('client', 'guidellm', first.row.line);
    const paired = (info === null || i !== null) && (stats === null || s !== null);
    const runComplete = whole && paired && rows.every((r) => r.whole);
    return { kind: 'run', at: at(first.row.line), label, complete: runComplete, fields: builder.fields, lines: builder.lines };
  });
}

/** A table cut before its closing rule, or closed with no row. */
function reportTableEnd(t: KnownBarTable, at: At, sink: DiagnosticSink): void {
  const title = t.title ?? BAR_TABLE_TITLES[t.kind];
  if (!t.table.closed) sink.report('block/truncated', at(t.line), `the ==== rule closing ${JSON.stringify(title)}`);
  // (a table whose header does not line up said so, and its rows were left unread)
  else if (t.table.rows.length === 0 && t.table.headerAligned) sink.report('table/no-rows', at(t.line), title);
}

/**
 * A table's rows of benchmarks, each with its label read. A line whose first cell is no label
 * GuideLLM prints (a log line printed into the table) is reported and left out; a row with fewer
 * cells than its table's columns, reported and kept.
 */
function benchmarkRows(t: KnownBarTable, at: At, sink: DiagnosticSink): BenchmarkRow[] {
  const j = t.table.headers.findIndex((h) => barColumnTarget(h)?.kind === 'label');
  const seen = new Map<string, number>();
  return t.table.rows.flatMap((row) => {
    const cell = row.cells[j];
    const label = cell?.text ?? '';
    const load = parseStrategyLabel(label);
    if (!load) {
      sink.report('parse/syntax', at(row.line), 'a benchmark row (a strategy label such as constant@5.00, then its values)', row.cells.map((c) => c.text).join('|'));
      return [];
    }
    const whole = isWhole(row, t.table.columns);
    if (!whole) sink.report('table/short-row', at(row.line), label, row.cells.filter((c) => c.text !== '').length, t.table.columns);
    const k = seen.get(label) ?? 0;
    seen.set(label, k + 1);
    return [{ row, label, labelLine: cell?.line ?? row.line, load, key: `${label}#${k}`, whole }];
  });
}

/** The strategy and the load its label gives, as guidellm-json reads them from `config.strategy`. */
function addLoad(builder: FieldMapBuilder, r: BenchmarkRow): void {
  builder.set('strategy', r.load.strategy, r.labelLine);
  builder.set('request_rate', r.load.requestRate, r.labelLine);
  builder.set('max_concurrency', r.load.maxConcurrency, r.labelLine);
}

/** A row's numbers, in their canonical units, each at the line its cell is printed on. */
function addCells(builder: FieldMapBuilder, row: BarTableLine, t: KnownBarTable, at: At, sink: DiagnosticSink): void {
  row.cells.forEach((cell, j) => {
    const header = t.table.headers[j];
    const target = header ? barColumnTarget(header) : null;
    if (!header || target?.kind !== 'number') return;
    const n = readCell(cell.text);
    if (n === 'bad') sink.report('table/bad-cell', at(cell.line), [header.section, header.name].filter((p) => p !== '').join(' '), cell.text);
    else if (n !== null) builder.set(target.column, scaleExact(n, target.scale), cell.line);
  });
}
