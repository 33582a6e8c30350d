import { setCell } from '../../src/core/cells.js';
import { percentToFraction } from '../../src/parse/values.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { ConfigRecord, RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { type JsonObject, keyLines } from '../_shared/json/index.js';
import { percentileRecord } from '../evalscope-perf-json/percentiles.js';
import { CLIENT, summaryRun } from '../evalscope-perf-json/summary.js';
import type { BoxTable } from './box-table.js';
import { cellNumber, squashed } from './text.js';

/**
 * The per-run tables `summary_result` (evalscope/perf/utils/db_util.py) logs: "Benchmarking
 * summary" (a Key/Value table of `benchmark_summary.json`'s keys, or 2026's grouped Metric/Value
 * table of `BenchmarkSummary.to_table`) and "Percentile results" (rows per percentile, or 2026's
 * rows per metric). Read through evalscope-perf-json's key mapping, so a printed run has the
 * columns, units and totals of its JSON.
 */

/** Spellings only the console has, → the JSON key evalscope-perf-json maps. */
const SUMMARY_ALIASES: Readonly<Record<string, string>> = {
  // 2024 docs' spelling, before any JSON was written
  'Time taken for tests (seconds)': 'Time taken for tests (s)',
};
/** 2024's percentile table (`get_percentile_results` of the first db_util.py): seconds, no unit in the header. */
const PERCENTILE_ALIASES: Readonly<Record<string, string>> = {
  'First Chunk Latency': 'First Chunk Latency (s)',
  Latency: 'Latency (s)',
};
/** Keys `benchmark_summary.json` holds as a fraction that the console may print as a percentage (`80.1%`). */
const FRACTION_KEYS: ReadonlySet<string> = new Set(['Spec. Accept Rate', 'Approx speculative decoding acceptance rate']);
/** 2026's row of the three counts, `400 / 398 / 2`. */
const COUNTS_ROW = 'total/success/failed';
const COUNTS = /^(\d+)\s*\/\s*(\d+)\s*\/\s*(\d+)$/;
/** 2026's group rows: `── Latency ──`. */
const GROUP_ROW = /^─+\s.*\s─+$/;

export function isSummaryTable(t: BoxTable): boolean {
  const [key, value] = t.header.map(squashed);
  return t.header.length === 2 && (key === 'key' || key === 'metric') && value === 'value';
}

export function isPercentileTable(t: BoxTable): boolean {
  const first = squashed(t.header[0] ?? '');
  if (first === 'percentile' || first === 'percentiles') return true;
  // 2026: rows per metric, a column per percentile
  return first === 'metric' && t.header.slice(1).some((h) => /^(?:\d+(?:\.\d+)?%|min|max)$/.test(h.trim()));
}

/** One run from a summary table (null when no row of it is a summary key). */
export function summaryTableRun(t: BoxTable, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const obj: JsonObject = {};
  const lines: Record<string, number> = {};
  const put = (key: string, value: number, line: number): void => {
    if (Object.hasOwn(obj, key)) return;
    obj[key] = value;
    lines[key] = line;
  };
  for (const row of t.rows) {
    const key = (row.cells[0] ?? '').trim();
    const cell = (row.cells[1] ?? '').trim();
    if (key === '' || GROUP_ROW.test(key)) continue;
    if (squashed(key) === COUNTS_ROW) {
      const m = COUNTS.exec(cell);
      if (m) {
        put('Total requests', Number(m[1]), row.line);
        put('Succeed requests', Number(m[2]), row.line);
        put('Failed requests', Number(m[3]), row.line);
      } else sink.report('table/bad-cell', pos(source, row.line), key, cell);
      continue;
    }
    const value = cellNumber(cell);
    if (value === undefined) continue;
    if (value === null) {
      // the 2024 `Result DB path`: a path, no measurement
      if (!/path$/i.test(key)) sink.report('table/bad-cell', pos(source, row.line), key, cell);
      continue;
    }
    // the JSON holds the acceptance estimate as a fraction, the console prints it as a percentage
    put(SUMMARY_ALIASES[key] ?? key, FRACTION_KEYS.has(key) && cell.endsWith('%') ? percentToFraction(value) : value, row.line);
  }
  if (Object.keys(obj).length === 0) {
    sink.report('table/no-rows', pos(source, t.line), t.title ?? 'Benchmarking summary');
    return null;
  }
  keyLines.set(obj, lines);
  return summaryRun(obj, pos(source, t.line), source, sink);
}

/**
 * The percentile table as evalscope-perf-json's `bench-metrics` record would give it (`p99_ttft_ms`,
 * `median_e2el_ms`, …), each value at its printed line. Null when it holds none of those columns.
 */
export function percentileTableRecord(t: BoxTable, source: TextSource): ConfigRecord | null {
  const rows: JsonObject[] = [];
  const add = (label: string, metric: string, cell: string, line: number): void => {
    const value = cellNumber(cell);
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    const key = PERCENTILE_ALIASES[metric] ?? metric;
    const row: JsonObject = { Percentiles: label, [key]: value };
    keyLines.set(row, { [key]: line });
    rows.push(row);
  };
  const first = squashed(t.header[0] ?? '');
  if (first === 'metric') {
    for (const row of t.rows) {
      const metric = row.cells[0] ?? '';
      t.header.slice(1).forEach((label, k) => add(label.trim(), metric, row.cells[k + 1] ?? '', row.line));
    }
  } else {
    for (const row of t.rows) {
      const label = (row.cells[0] ?? '').trim();
      t.header.slice(1).forEach((metric, k) => add(label, metric.trim(), row.cells[k + 1] ?? '', row.line));
    }
  }
  return percentileRecord(rows, pos(source, t.line), CLIENT);
}

/** The run with the percentiles printed after it in the cells it has no value for. */
export function withPercentiles(run: RunRecord, percentiles: ConfigRecord, lastLine: number): RunRecord {
  const fields = { ...run.fields };
  const lines = { ...run.lines };
  for (const [column, value] of Object.entries(percentiles.fields)) {
    if (column === 'client' || Object.hasOwn(fields, column)) continue;
    setCell(fields, column, value);
    const line = percentiles.lines[column];
    if (line !== undefined) setCell(lines, column, line);
  }
  return { ...run, fields, lines, lastLine };
}

function pos(source: TextSource, line: number): SourcePos {
  return { file: source.path, line, column: 1 };
}
