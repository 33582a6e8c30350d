import type { DiagnosticSink } from '../core/diagnostic.js';
import { naturalCompare } from '../core/natural-order.js';
import type { FieldValue, RelPath } from '../core/types.js';
import type { FailedConfiguration } from '../normalize/failed-configurations.js';
import { CONFIG_COLUMNS } from '../normalize/schema.js';
import { type RowFilter, matchesFilter } from './filter.js';
import { configKey, defaultMatchKeys, differingKeys, LOAD_COLUMNS, matchingRows } from './match-keys.js';
import { presentMeasuredMetrics } from './headline-metric.js';
import { medianOf } from './summary-groups.js';
import { metricPair } from './speedup.js';
import { repeatGroups, sameInput, workloadDifference, workloadOf } from './workload.js';
import { ownCell, setCell } from '../core/cells.js';

type Row = Record<string, FieldValue>;

/** Compared unless `--metric` says otherwise; offline benchmarks' latencies too when the runs have them (headline-metric.ts). */
export const DEFAULT_METRICS: readonly string[] = ['output_throughput', 'total_token_throughput', 'mean_tpot_ms', 'mean_ttft_ms', 'mean_e2el_ms'];

export interface CompareOptions {
  readonly baseline: RowFilter;
  readonly metrics?: readonly string[];
  /** `--match`: replaces the default match keys. */
  readonly match?: readonly string[];
  readonly configColumns?: readonly string[];
  readonly failedConfigurations?: readonly FailedConfiguration[];
  readonly sink?: DiagnosticSink;
}

const PROVENANCE = ['run_id', 'source_file', 'source_line', 'source_format', 'label', 'config_sources'];

/**
 * `benchlens compare` (schema.md §3): one row per non-baseline configuration (repeats combined by
 * the median), paired with the baseline runs that match it on every match key. A baseline that
 * differs on a configuration key is never divided (`mismatch:<keys>`); failed requests on either
 * side withhold the speedup; a run with none of the compared metrics is not paired (`no-metric`).
 * Failed configurations follow as `failed-configuration` rows.
 */
export function compareRuns(rows: readonly Row[], options: CompareOptions): Row[] {
  const metrics = options.metrics && options.metrics.length > 0 ? options.metrics : [...DEFAULT_METRICS, ...presentMeasuredMetrics(rows)];
  const configColumns = options.configColumns ?? CONFIG_COLUMNS;
  const keys = options.match ? [...options.match] : defaultMatchKeys(rows, configColumns, options.baseline);
  const baselines = rows.filter((r) => matchesFilter(r, options.baseline));
  // in source order once, not once per configuration (nearestBaseline takes the first of the nearest)
  const bySourceOrder = [...baselines].sort(bySource);
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    if (matchesFilter(r, options.baseline)) continue;
    const k = configKey(r, configColumns);
    const group = groups.get(k);
    if (group) group.push(r);
    else groups.set(k, [r]);
  }
  const out: Row[] = [];
  const matching = matchingRows(baselines, keys);
  for (const named of groups.values()) {
    for (const group of measuredRepeats(named, options.sink)) out.push(pairGroup(group, { matching, bySource: bySourceOrder }, keys, metrics, configColumns, options));
  }
  out.sort(byConfiguration);
  for (const f of options.failedConfigurations ?? []) out.push(failedRow(f));
  return uniformColumns(out);
}

/**
 * A named configuration's runs as groups of repeats (workload.ts): runs the columns do not tell
 * apart that measured different workloads are said, and compared apart.
 */
function measuredRepeats(named: Row[], sink: DiagnosticSink | undefined): Row[][] {
  const groups = repeatGroups(named);
  const first = named[0] as Row;
  for (const g of groups.slice(1)) {
    const r = g[0] as Row;
    sink?.report('compare/not-repeats', sourceOf(r), workloadDifference(workloadOf(r), workloadOf(first)), `the other run: ${String(first.source_file)}:${String(first.source_line)}`);
  }
  return groups;
}

const sourceOf = (r: Row) => ({ file: String(r.source_file) as RelPath, line: Number(r.source_line), column: 1 });

/** The baseline runs matching a row, in row order (what the statistics see), and all sorted by source (what names the nearest). */
interface Baselines {
  readonly matching: (row: Row) => Row[];
  readonly bySource: readonly Row[];
}

function pairGroup(group: Row[], baselines: Baselines, keys: readonly string[], metrics: readonly string[], configColumns: readonly string[], o: CompareOptions): Row {
  const first = group[0] as Row;
  const at = sourceOf(first);
  const configured = baselines.matching(first);
  // a baseline that sent other prompts than the candidate's (another prefix, length or dataset, which no column says) is none
  const workload = workloadOf(first);
  const matched = configured.filter((b) => sameInput(workload, workloadOf(b)));
  const row: Row = {};
  for (const c of PROVENANCE) row[c] = first[c] ?? null;
  for (const c of configColumns) setCell(row, c, first[c] ?? null);
  let status = 'ok';
  if (!group.some((r) => metrics.some((m) => typeof r[m] === 'number'))) {
    // a run that measured none of the compared metrics (a server's start-up times, a cut result): nothing to divide
    status = 'no-metric';
    o.sink?.report('compare/no-metric', at, metrics.join(', '));
  } else if (matched.length === 0 && configured.length > 0) {
    const other = configured[0] as Row;
    status = 'mismatch:workload';
    o.sink?.report('compare/mismatch', at, workloadDifference(workload, workloadOf(other)), String(other.source_file));
  } else if (matched.length === 0) {
    const nearest = nearestBaseline(first, baselines.bySource, keys);
    if (!nearest || nearest.diff.every((k) => LOAD_COLUMNS.includes(k))) {
      status = 'no-baseline';
      o.sink?.report('compare/no-baseline', at, o.baseline.text);
    } else {
      status = `mismatch:${nearest.diff.join(',')}`;
      o.sink?.report('compare/mismatch', at, nearest.diff.map((k) => `${k} (${String(first[k])} vs ${String(nearest.row[k])})`).join(', '), String(nearest.row.source_file));
    }
  } else {
    const failedSide = sideWithFailures(group, 'candidate') ?? sideWithFailures(matched, 'baseline');
    if (failedSide) {
      status = 'failed-requests';
      o.sink?.report('compare/failed-requests', at, failedSide.side, failedSide.count);
    }
  }
  row.pair_status = status;
  const sortedBase = [...matched].sort(bySource);
  row.baseline_run_id = sortedBase[0]?.run_id ?? null;
  row.baseline_source_file = sortedBase[0]?.source_file ?? null;
  row.repeats = group.length;
  row.baseline_repeats = matched.length;
  for (const m of metrics) Object.assign(row, metricPair(m, group, matched, status === 'ok'));
  // what the candidate accepted beside what it gained (the median of its repeats), where measured
  for (const c of ACCEPTANCE) {
    const v = medianOf(group, c);
    if (v !== null) row[c] = Math.round(v * 1e6) / 1e6;
  }
  return row;
}

/** The acceptance columns a comparison row carries from its candidate runs. */
const ACCEPTANCE = ['spec_acceptance_rate', 'spec_acceptance_length'];

/** The baseline differing on the fewest keys; of several, the first in source order (`baselines` are in it). */
function nearestBaseline(row: Row, baselines: readonly Row[], keys: readonly string[]): { row: Row; diff: string[] } | null {
  let best: { row: Row; diff: string[] } | null = null;
  for (const b of baselines) {
    const diff = differingKeys(row, b, keys);
    if (!best || diff.length < best.diff.length) best = { row: b, diff };
  }
  return best;
}

function sideWithFailures(rows: readonly Row[], side: string): { side: string; count: number } | null {
  const count = rows.reduce((n, r) => n + (typeof r.failed === 'number' && r.failed > 0 ? r.failed : 0), 0);
  return count > 0 ? { side, count } : null;
}

function failedRow(f: FailedConfiguration): Row {
  return {
    run_id: null,
    source_file: f.source_file,
    source_line: f.source_line,
    config_sources: JSON.stringify(f.config_sources),
    ...f.config,
    pair_status: 'failed-configuration',
    error: `${f.exception}: ${f.message}`,
    error_at: f.error_at,
  };
}

const ORDER = ['label', 'spec_method', 'num_spec_tokens', 'draft_model', 'model', 'tp', 'pp', 'dataset', 'max_concurrency', 'request_rate', 'batch_size', 'source_file', 'source_line'];

function byConfiguration(a: Row, b: Row): number {
  for (const c of ORDER) {
    const x = a[c] ?? null;
    const y = b[c] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const order = naturalCompare(String(x), String(y));
    if (order !== 0) return order;
  }
  return 0;
}

function bySource(a: Row, b: Row): number {
  const fa = String(a.source_file);
  const fb = String(b.source_file);
  return fa === fb ? Number(a.source_line) - Number(b.source_line) : fa < fb ? -1 : 1;
}

/** Every row gets every column (first-seen order), null where missing. */
function uniformColumns(rows: readonly Row[]): Row[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, ownCell(r, c) ?? null])));
}
