import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { type CsvRow, csvRows } from '../_shared/csv/index.js';
import { leadingFields, placeRow, requestCounts } from './alignment.js';
import { type Column, multiRowColumns, singleRowColumns } from './columns.js';
import { addStatCell } from './metrics.js';
import { addCsvRunConfig } from './run-config.js';

/** 0.2 / 0.3 (and the 0.4 development output class): one header row of described columns. */
const SINGLE_ROW_HEADER = /^Type,Run Id,Id,Name,Start Time,End Time,Duration,Successful Requests,/;
/** 0.4+: the group row of a three-row header; GuideLLM's embeddings CSV starts `Run Info,Run Info,Benchmark`. */
const MULTI_ROW_HEADER = /^Run Info,Run Info,Run Info,Run Info,Run Info,Run Info,Benchmark,/;
const MULTI_ROW_HEADER_ROWS = 3;

interface Layout {
  readonly columns: readonly Column[];
  readonly dataRows: readonly CsvRow[];
  /** 0.4+ writes a status's distributions only when it has requests. */
  readonly statusesVary: boolean;
}

/** GuideLLM `benchmarks.csv` (0.2 → schema version 2, README.md): one run per benchmark row. */
export const grammar: Grammar = {
  id: 'guidellm-csv',
  title: 'GuideLLM benchmarks.csv',
  readsLineText: true,
  detect({ head }) {
    const first = head.split('\n', 1)[0] ?? '';
    if (SINGLE_ROW_HEADER.test(first)) return { score: 0.85, reason: 'GuideLLM 0.2/0.3 CSV header (Type,Run Id,Id,Name,…)' };
    if (MULTI_ROW_HEADER.test(first)) return { score: 0.85, reason: 'GuideLLM 0.4+ CSV group header (Run Info,…,Benchmark)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    const layout = readLayout([...csvRows(source, sink)]);
    return layout ? layout.dataRows.map((row) => toRun(row, layout, source, sink)) : [];
  },
};

function readLayout(rows: readonly CsvRow[]): Layout | null {
  const [first, second, third] = rows;
  if (!first) return null;
  const firstLine = first.cells.join(',');
  if (SINGLE_ROW_HEADER.test(firstLine)) return { columns: singleRowColumns(first.cells), dataRows: rows.slice(1), statusesVary: false };
  if (!MULTI_ROW_HEADER.test(firstLine)) return null;
  const columns = multiRowColumns(first.cells, second?.cells ?? [], third?.cells ?? []);
  return { columns, dataRows: rows.slice(MULTI_ROW_HEADER_ROWS), statusesVary: true };
}

function toRun(row: CsvRow, layout: Layout, source: TextSource, sink: DiagnosticSink): RunRecord {
  const { line } = row;
  const at = { file: source.path, line, column: 1 };
  const expected = layout.columns.length;
  const cells = wholeCells(row);
  const placement = placeRow(cells, layout.columns, layout.statusesVary);
  const columns = placement.kind === 'misaligned' ? leadingFields(layout.columns) : placement.columns;
  const builder = new FieldMapBuilder();
  const fields = new Map<string, string>();
  columns.forEach((column, i) => {
    const cell = (cells[i] ?? '').trim();
    if (column.kind === 'field') fields.set(column.name, cell);
    else addStatCell(builder, column, cell, { file: source.path, line, sink });
  });
  let complete = true;
  if (placement.kind === 'misaligned') {
    sink.report('table/misaligned-row', at, cells.length, expected);
    complete = false;
  } else if (placement.kind === 'realigned') {
    sink.report('table/realigned-row', at, cells.length, expected);
  } else if (cells.length < expected) {
    sink.report('table/short-row', at, fields.get('name') || fields.get('strategy') || 'benchmark', cells.length, expected);
    complete = false;
  }
  const counts = requestCounts(cells, columns);
  builder.set('completed', counts.successful, line);
  builder.set('failed', counts.errored, line);
  builder.set('incomplete', counts.incomplete, line);
  addTokenTotals(builder, counts.successful, line);
  addCsvRunConfig(builder, fields, line);
  builder.set('client', 'guidellm', line);
  return { kind: 'run', at, label: null, complete, fields: builder.fields, lines: builder.lines };
}

/**
 * The cells of a row before one a file cut short ends inside: a quoted cell never closed
 * (CsvRow.cut), or a quote the CSV reader kept as text (the file ends right after it: no whole
 * cell starts with one, GuideLLM's cells are numbers, words, Python lists and JSON objects).
 */
function wholeCells(row: CsvRow): readonly string[] {
  const cells = row.cut === true ? row.cells.slice(0, -1) : row.cells;
  const cut = cells.findIndex((c) => c.startsWith('"'));
  return cut < 0 ? cells : cells.slice(0, cut);
}

/**
 * The tokens of the successful requests, which guidellm-json reads as the distributions'
 * `total_sum` (mean × count) and the CSV leaves out: the mean times the successful requests,
 * rounded to whole tokens as guidellm-json rounds the sum. 0.2 / 0.3 count the output tokens of
 * the requests that returned any, and so may count fewer than the successful requests.
 */
function addTokenTotals(builder: FieldMapBuilder, successful: number | undefined, line: number): void {
  if (successful === undefined) return;
  for (const [total, mean] of [['total_input_tokens', 'mean_input_len'], ['total_output_tokens', 'mean_output_len']] as const) {
    const value = builder.fields[mean];
    if (typeof value === 'number' && Number.isFinite(value)) builder.set(total, Math.round(value * successful), line);
  }
}
