import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { readCell } from './cell-value.js';
import { type ColumnHeader, columnTarget, type TableKind } from './columns.js';
import type { KnownTable, Report } from './reports.js';
import { isClosed, type ValueRow } from './table.js';

/** The tables runs are read from; the modality tables repeat the token counts of `tokens` per kind of content. */
const READ: ReadonlySet<TableKind> = new Set(['summary', 'tokens', 'latency', 'throughput']);

/** One benchmark (row k of every table) being assembled. */
interface Draft {
  readonly builder: FieldMapBuilder;
  readonly line: number;
  /** How many of the report's read tables had a row for it. */
  tables: number;
  complete: boolean;
}

type At = (line: number) => { file: TextSource['path']; line: number; column: number };

/**
 * The runs of one report: the k-th value row of every table is the k-th benchmark (GuideLLM
 * prints one row per benchmark, in the same order, in each table). Tables whose rows do not line
 * up with the first one's, tables cut short and a report that ends before its throughput table
 * are reported; the runs they leave without a row or a table are kept as partial runs.
 */
export function reportRuns(report: Report, label: string | null, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at: At = (line) => ({ file: source.path, line, column: 1 });
  const read = report.tables.filter((t) => READ.has(t.kind));
  const drafts: Draft[] = [];
  const [first] = read;
  for (const t of read) {
    if (first && t !== first) checkAlignment(t, first, at, sink);
    if (isClosed(t.table) && rowCount(t) === 0) sink.report('table/no-rows', at(t.table.line), titleOf(t));
    t.table.sections.forEach((section, s) => {
      const headers = t.headers[s] ?? [];
      section.rows.forEach((row, k) => {
        const draft = (drafts[k] ??= { builder: new FieldMapBuilder(), line: row.line, tables: 0, complete: true });
        if (s === 0) draft.tables++;
        addRow(draft, row, headers, at, sink);
      });
    });
  }
  const cutShort = reportCut(report, at, sink);
  reportLoadless(drafts, at, sink);
  return drafts.flatMap((d) => {
    if (d.builder.size === 0) return [];
    if (report.model) d.builder.set('model', report.model.value, report.model.line);
    d.builder.set('client', 'guidellm', d.line);
    const complete = d.complete && !cutShort && d.tables === read.length;
    return [{ kind: 'run', at: at(d.line), label, complete, fields: d.builder.fields, lines: d.builder.lines }];
  });
}

/** Adds one value row's cells to its run: the strategy, numbers in their canonical units. */
function addRow(draft: Draft, row: ValueRow, headers: readonly ColumnHeader[], at: At, sink: DiagnosticSink): void {
  if (row.cells.length < headers.length) {
    draft.complete = false;
    sink.report('table/short-row', at(row.line), row.cells[0] ?? '', row.cells.length, headers.length);
  }
  row.cells.forEach((cell, j) => {
    const header = headers[j];
    const target = header ? columnTarget(header) : null;
    if (!header || !target) return;
    if (target.kind === 'strategy') {
      if (cell === '') return;
      draft.builder.set('strategy', cell, row.line);
      // one request at a time, as guidellm-json says of it
      if (cell === 'synchronous') draft.builder.set('max_concurrency', 1, row.line);
      return;
    }
    const n = readCell(cell);
    if (n === 'bad') sink.report('table/bad-cell', at(row.line), [header.group, header.name, header.units].filter((p) => p !== '').join(' '), cell);
    else if (n !== null) draft.builder.set(target.column, scaleExact(n, target.scale), row.line);
  });
}

/** Warns when a table's rows cannot be the first table's benchmarks, in order: another count, another strategy. */
function checkAlignment(table: KnownTable, first: KnownTable, at: At, sink: DiagnosticSink): void {
  const [n, expected] = [rowCount(table), rowCount(first)];
  // a table cut short is reported as such (reportCut)
  if (n !== expected && !(n < expected && !isClosed(table.table))) {
    sink.report('table/row-mismatch', at(table.table.line), titleOf(table), `${n} ${n === 1 ? 'row' : 'rows'}, not ${expected} as in ${JSON.stringify(titleOf(first))}`);
    return;
  }
  const mine = strategies(table);
  const theirs = strategies(first);
  const k = mine.findIndex((s, i) => s !== '' && (theirs[i] ?? '') !== '' && s !== theirs[i]);
  if (k >= 0) sink.report('table/row-mismatch', at(table.table.line), titleOf(table), `row ${k + 1} is ${JSON.stringify(mine[k])}, not ${JSON.stringify(theirs[k])}`);
}

/**
 * Reports a report's tables cut before their closing rule and, when every table is whole, a
 * report that stops before its throughput table (a log cut between two tables); true when either
 * leaves its runs partial.
 */
function reportCut(report: Report, at: At, sink: DiagnosticSink): boolean {
  const open = report.tables.filter((t) => !isClosed(t.table));
  for (const t of open) sink.report('block/truncated', at(t.table.line), `the |===| rule closing ${JSON.stringify(titleOf(t))}`);
  if (open.length > 0) return true;
  const kinds = new Set(report.tables.map((t) => t.kind));
  if (!kinds.has('summary') || kinds.has('throughput')) return false;
  sink.report('block/truncated', at(report.line), 'no Server Throughput Statistics table after the Run Summary Info');
  return true;
}

/** Strategies whose load (a rate, a number of streams) the benchmark is defined by, and the console leaves out. */
const LOAD_DEFINED: ReadonlySet<string> = new Set(['constant', 'poisson', 'concurrent']);

/** Says, once for a report, which of its benchmarks have no load: their rows are told apart by their order alone. */
function reportLoadless(drafts: readonly Draft[], at: At, sink: DiagnosticSink): void {
  const loadless = drafts.filter((d) => LOAD_DEFINED.has(String(d.builder.fields.strategy)));
  const [first] = loadless;
  if (!first) return;
  const strategies = [...new Set(loadless.map((d) => String(d.builder.fields.strategy)))].join(', ');
  sink.report('table/no-load', at(first.line), loadless.length, strategies);
}

/** The number of benchmarks a table has rows for (its sections repeat them). */
function rowCount(table: KnownTable): number {
  return table.table.sections[0]?.rows.length ?? 0;
}

/** Each row's strategy cell, `''` where there is none. */
function strategies(table: KnownTable): string[] {
  const section = table.table.sections[0];
  const j = (table.headers[0] ?? []).findIndex((h) => columnTarget(h)?.kind === 'strategy');
  return (section?.rows ?? []).map((r) => (j >= 0 ? (r.cells[j] ?? '') : ''));
}

function titleOf(table: KnownTable): string {
  return table.table.title ?? `${table.kind} table`;
}
