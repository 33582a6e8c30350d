import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { canonicalDataset } from '../../src/normalize/dataset.js';
import { scaleExact } from '../../src/parse/values.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { CLIENT, ownName } from '../evalscope-perf-json/summary.js';
import type { BoxTable, BoxRow } from './box-table.js';
import { cellNumber, squashed } from './text.js';

/**
 * The report `run_multi_benchmark` prints after every pair has run (`print_summary`,
 * evalscope/perf/utils/rich_display.py) and saves as `performance_summary.txt` in the top output
 * folder: a "Basic Information" table (model, dataset, API), then one row per pair: 2025's
 * "Detailed Performance Metrics" (means and p99 in seconds) or 2026's "Performance Overview"
 * (requests, RPS, Gen/s, success) with its "Per-Request Metrics" (avg/p50/p99/max per metric).
 */

interface Column {
  readonly column: string;
  readonly scale?: number;
  /** `rate`: `INF`/`-` is no limit (Infinity); `success`: % of requests → `error_rate`; `int`: a count. */
  readonly kind?: 'rate' | 'success' | 'int';
}

/** Headers (without spacing, lower case: rich wraps them) → columns. */
const COLUMNS: Readonly<Record<string, Column | null>> = {
  'conc.': { column: 'max_concurrency', kind: 'int' },
  rate: { column: 'request_rate', kind: 'rate' },
  num: { column: 'num_requests', kind: 'int' },
  rps: { column: 'request_throughput' },
  'avglat.(s)': { column: 'mean_e2el_ms', scale: 1000 },
  'p99lat.(s)': { column: 'p99_e2el_ms', scale: 1000 },
  'avgttft(s)': { column: 'mean_ttft_ms', scale: 1000 },
  'p99ttft(s)': { column: 'p99_ttft_ms', scale: 1000 },
  'avgtpot(s)': { column: 'mean_tpot_ms', scale: 1000 },
  'p99tpot(s)': { column: 'p99_tpot_ms', scale: 1000 },
  'avgttft(ms)': { column: 'mean_ttft_ms' },
  'p99ttft(ms)': { column: 'p99_ttft_ms' },
  'avgtpot(ms)': { column: 'mean_tpot_ms' },
  'p99tpot(ms)': { column: 'p99_tpot_ms' },
  'gen.toks/s': { column: 'output_throughput' },
  'gen.tok/s': { column: 'output_throughput' },
  'gen/s': { column: 'output_throughput' },
  successrate: { column: 'error_rate', kind: 'success' },
  success: { column: 'error_rate', kind: 'success' },
  'avginp.tps': { column: 'input_throughput' },
  'avginp.tok': { column: 'mean_input_len' },
  // a per-request throughput's p99 (embedding runs) and the multi-turn trace count: no column of the schema
  'p99inp.tps': null,
  traces: null,
};

/** 2026 "Per-Request Metrics" rows → column stem and factor; its `avg`/`p50`/`p99`/`max` → statistic. */
const PER_REQUEST: Readonly<Record<string, readonly [stem: string, factor: number]>> = {
  'latency(s)': ['e2el_ms', 1000],
  'ttft(ms)': ['ttft_ms', 1],
  'ttft(s)': ['ttft_ms', 1000],
  'tpot(ms)': ['tpot_ms', 1],
  'tpot(s)': ['tpot_ms', 1000],
  inputtokens: ['input_len', 1],
  outputtokens: ['output_len', 1],
};
const STATS: Readonly<Record<string, string>> = { avg: 'mean', p50: 'median', p99: 'p99', max: 'max' };
/**
 * 2026 "Per-Request Metrics" rows with only an `avg` (evalscope-perf-json's keys of the same
 * values): speculative decoding as the client estimates it (acceptance length, and its rate
 * printed in %), and a multi-turn run's history turns per request, prefix-cache hit rate (in %)
 * and mean TTFT of the first turns and of the later ones.
 */
const SCALAR_ROWS: Readonly<Record<string, readonly [column: string, factor: number]>> = {
  'decodedtok/iter': ['client_spec_acceptance_length', 1],
  'spec.acceptrate': ['client_spec_acceptance_rate', 0.01],
  'turns/req': ['mean_input_num_turns', 1],
  'cachehit(%)': ['prefix_cache_hit_rate', 0.01],
  '1st-turnttft(ms)': ['mean_first_turn_ttft_ms', 1],
  'subseq.ttft(ms)': ['mean_subsequent_turn_ttft_ms', 1],
};
/** Rows evalscope prints only for a multi-turn run (`--multi-turn`): they make it one (`multi_turn`). */
const MULTI_TURN_ROWS: ReadonlySet<string> = new Set(['1st-turnttft(ms)', 'subseq.ttft(ms)']);

export function isPairsTable(t: BoxTable): boolean {
  return squashed(t.header[0] ?? '') === 'conc.' && !t.header.some((h) => squashed(h) === 'metric');
}

export function isPerRequestTable(t: BoxTable): boolean {
  return squashed(t.header[0] ?? '') === 'conc.' && t.header.some((h) => squashed(h) === 'metric');
}

/** "Basic Information": the model, dataset and API every row of the report ran with. */
export function basicInformation(t: BoxTable): FieldMapBuilder | null {
  if (t.header.length > 0 || !t.rows.some((r) => squashed(r.cells[0] ?? '') === 'model')) return null;
  const b = new FieldMapBuilder();
  for (const row of t.rows) {
    const value = (row.cells[1] ?? '').trim();
    if (value === '' || value === 'N/A') continue;
    switch (squashed(row.cells[0] ?? '')) {
      case 'model':
        b.set('model', value, row.line);
        break;
      case 'testdataset':
        // evalscope's `share_gpt_zh`/`share_gpt_en` are benchlens' `sharegpt` (as evalscope-perf-json's args)
        b.set('dataset', canonicalDataset(/^share_?gpt/i.test(value) ? 'sharegpt' : value, null) ?? undefined, row.line);
        break;
      case 'apitype':
        b.set('backend', value, row.line);
        break;
    }
  }
  return b;
}

/** One run per row of a pairs table, with the basic information and the per-request rows of its pair. */
export function pairRuns(
  t: BoxTable,
  info: FieldMapBuilder | null,
  perRequest: BoxTable | null,
  source: TextSource,
  sink: DiagnosticSink,
): RunRecord[] {
  const keys = t.header.map(squashed).map((key, _k, all) => fullHeader(key, all));
  const extra = perRequest ? perRequestByPair(perRequest) : new Map<string, BoxRow[]>();
  const unknown: string[] = [];
  const runs: RunRecord[] = [];
  for (const row of t.rows) {
    const b = new FieldMapBuilder();
    keys.forEach((key, k) => {
      const cell = row.cells[k] ?? '';
      const spec = COLUMNS[key];
      if (spec === null) return;
      const value = cellNumber(cell);
      if (value === null) {
        sink.report('table/bad-cell', { file: source.path, line: row.line, column: 1 }, t.header[k] ?? key, cell);
        return;
      }
      if (spec === undefined) {
        if (typeof value === 'number' && Number.isFinite(value)) {
          const name = ownName(t.header[k] ?? key);
          unknown.push(name);
          b.set(name, value, row.line);
        }
        return;
      }
      b.set(spec.column, convert(spec, cell, value), row.line);
    });
    for (const r of extra.get(pairKey(row.cells[0], keys.includes('rate') ? row.cells[keys.indexOf('rate')] : undefined)) ?? []) addPerRequest(b, r);
    if (info) for (const [column, value] of Object.entries(info.fields)) b.set(column, value, info.lines[column] ?? row.line);
    b.set('client', CLIENT, row.line);
    runs.push({ kind: 'run', at: { file: source.path, line: row.line, column: 1 }, label: null, complete: t.closed, fields: b.fields, lines: b.lines });
  }
  reportUnknownMetrics(unknown, sink, source.path, t.line);
  return runs;
}

/**
 * A header rich cut short to fit the console (`TPOT(…` at 100 columns) → the one known header it
 * begins; between `(s)` and `(ms)` the unit the table's other latency headers have.
 */
function fullHeader(key: string, all: readonly string[]): string {
  if (!key.endsWith('…')) return key;
  const start = key.slice(0, -1);
  const candidates = Object.keys(COLUMNS).filter((k) => k.startsWith(start));
  if (candidates.length <= 1) return candidates[0] ?? key;
  const unit = all.some((h) => h.endsWith('(ms)')) ? '(ms)' : all.some((h) => h.endsWith('(s)')) ? '(s)' : null;
  return candidates.find((k) => unit !== null && k.endsWith(unit)) ?? key;
}

function convert(spec: Column, cell: string, value: number | undefined): number | undefined {
  if (spec.kind === 'rate') {
    // 2025 prints INF, 2026 a dash, for no limit (request_rate -1)
    if (value === undefined) return cell.trim() === '-' ? Infinity : undefined;
    return value === -1 || value === Infinity ? Infinity : value > 0 ? value : undefined;
  }
  if (value === undefined || !Number.isFinite(value)) return undefined;
  if (spec.kind === 'int') return Number.isInteger(value) && value >= 0 ? value : undefined;
  // the success rate, printed to 0.1 %: the failed share, as a fraction
  if (spec.kind === 'success') return value >= 0 && value <= 100 ? Math.round((100 - value) * 10) / 1000 : undefined;
  return spec.scale === undefined ? value : scaleExact(value, spec.scale);
}

/** A pair's rows of the per-request table: its first row names the pair, the rows below it leave it blank. */
function perRequestByPair(t: BoxTable): Map<string, BoxRow[]> {
  const out = new Map<string, BoxRow[]>();
  let current: BoxRow[] | null = null;
  let section = -1;
  for (const row of t.rows) {
    const conc = (row.cells[0] ?? '').trim();
    if (conc !== '' || row.section !== section) {
      const key = pairKey(row.cells[0], row.cells[1]);
      current = out.get(key) ?? [];
      out.set(key, current);
      section = row.section;
    }
    current?.push(row);
  }
  return out;
}

function pairKey(conc: string | undefined, rate: string | undefined): string {
  return `${(conc ?? '').trim()}|${(rate ?? '').trim()}`;
}

/** One per-request row: `Latency (s)` avg/p50/p99/max → `mean_e2el_ms`, `median_e2el_ms`, … */
function addPerRequest(b: FieldMapBuilder, row: BoxRow): void {
  const name = squashed(row.cells[2] ?? '');
  const scalar = SCALAR_ROWS[name];
  if (scalar) {
    const value = cellNumber(row.cells[3] ?? '');
    if (typeof value === 'number' && Number.isFinite(value)) b.set(scalar[0], scaleExact(value, scalar[1]), row.line);
    if (MULTI_TURN_ROWS.has(name)) b.set('multi_turn', true, row.line);
    return;
  }
  const spec = PER_REQUEST[name];
  if (!spec) return;
  const stats = ['avg', 'p50', 'p99', 'max'];
  stats.forEach((stat, k) => {
    const value = cellNumber(row.cells[3 + k] ?? '');
    if (typeof value === 'number' && Number.isFinite(value)) b.set(`${STATS[stat]}_${spec[0]}`, scaleExact(value, spec[1]), row.line);
  });
}
