import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { counted } from '../../src/core/counted.js';
import { type ConfigRecord, FieldMapBuilder, type FieldWriter } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * The per-conversation ("trace") statistics and the workload throughput windows EvalScope writes
 * for multi-turn runs, in both of its layouts:
 *
 * * the legacy `evalscope perf` folder (beside `benchmark_summary.json`, `db_util.summary_result`):
 *   `trace_summary.json` (`TraceLevelSummary.to_dict`: `n_traces`, `rows` of `metric`, `mean`, `min`,
 *   `p50`…`p99`, `max`), `workload_throughput.json` (`WorkloadThroughput`: `n_samples`, `wall_time_s`,
 *   `last_window_s`, `warmup_frac`, `rows` of `metric`, `overall`, `last_window`, `steady_state`) and
 *   `workload_timeline.json` (`wall_start`, `points` of `t`, `cum_completion`, `cum_new_prompt`,
 *   `cum_cached_prompt`);
 * * the 2026 engine's per-load folder `runs/<NNN>-<mode>/` (`run_engine.py`): `trace_summary.json`
 *   (`TraceSummary`: `trace_count`, `averages`, `percentiles` by metric id) and
 *   `workload_timeline.json` (`WorkloadSummary`: windows `overall`, `last_window`, `steady_state`,
 *   later also `points` of cumulative tokens) — both the same objects as the load's entry in
 *   `suite_summary.json` (`runs[].trace_summary`, `runs[].workload_summary`), read there (suite.ts).
 */

export type MultiTurnKind = 'legacy-trace' | 'legacy-throughput' | 'legacy-timeline' | 'engine-trace' | 'engine-workload';

/** Literals of each file's head (decided after the suite summary, which holds the engine's objects too). */
export function multiTurnKind(head: string): MultiTurnKind | null {
  if (head.includes('"n_traces"') && head.includes('"rows"') && head.includes('"metric"')) return 'legacy-trace';
  if (head.includes('"rows"') && head.includes('"steady_state"') && head.includes('"last_window"') && head.includes('"metric"')) return 'legacy-throughput';
  if (head.includes('"points"') && head.includes('"cum_completion"')) return 'legacy-timeline';
  if (head.includes('"trace_count"') && head.includes('"averages"') && head.includes('"percentiles"')) return 'engine-trace';
  if (head.includes('"overall"') && head.includes('"last_window"') && head.includes('"steady_state"')) return 'engine-workload';
  return null;
}

/**
 * Per-conversation metrics → column stem and factor to its unit. Legacy rows are named by label,
 * the engine's by id; both are computed per conversation, then summarised over conversations.
 * A first turn's TTFT is the run's first-turn TTFT (one first turn per conversation): the run's own
 * request-level values win, these fill what it lacks.
 */
const TRACE_METRICS: Readonly<Record<string, readonly [stem: string, factor: number]>> = {
  // first request's start → last request's end
  'Latency (s)': ['conversation_duration_ms', 1000],
  trace_latency: ['conversation_duration_ms', 1000],
  // requests per conversation (the engine counts failed ones too)
  turns: ['conversation_turns', 1],
  'First-Turn TTFT (s)': ['first_turn_ttft_ms', 1000],
  first_turn_ttft: ['first_turn_ttft_ms', 1000],
  // conversation start → first token of its last reply
  'TTFAT (s)': ['ttfat_ms', 1000],
  ttfat: ['ttfat_ms', 1000],
  // one user's decode rate, averaged over the conversation's turns
  'Decode TPS': ['conversation_decode_throughput', 1],
  decode_throughput: ['conversation_decode_throughput', 1],
  // % → fraction
  'Cache Hit Rate (%)': ['conversation_prefix_cache_hit_rate', 0.01],
  cache_hit_rate: ['conversation_prefix_cache_hit_rate', 0.01],
  'Eligible Cache Hit Rate (%)': ['conversation_eligible_cache_hit_rate', 0.01],
  eligible_cache_hit_rate: ['conversation_eligible_cache_hit_rate', 0.01],
};

/** Statistic fields → column prefixes: the legacy row's and the engine's `PercentileStats`. */
const STATS: Readonly<Record<string, string>> = {
  mean: 'mean', min: 'min', minimum: 'min', max: 'max', maximum: 'max', p1: 'p1', p5: 'p5', p10: 'p10', p25: 'p25', p50: 'median', p75: 'p75', p90: 'p90', p95: 'p95', p99: 'p99',
};

/** Throughput keys of a window (legacy row labels, engine ids of both versions) → column stems, tok/s or req/s. */
const WINDOW_RATES: Readonly<Record<string, string>> = {
  'Total Prompt tok/s': 'input_throughput',
  'New Prompt tok/s': 'uncached_input_throughput',
  'Cached Prompt tok/s': 'cached_input_throughput',
  'Completion tok/s': 'output_throughput',
  request_throughput: 'request_throughput',
  total_prompt_token_throughput: 'input_throughput',
  new_prompt_token_throughput: 'uncached_input_throughput',
  cached_prompt_token_throughput: 'cached_input_throughput',
  completion_token_throughput: 'output_throughput',
  input_token_throughput: 'input_throughput',
  output_token_throughput: 'output_throughput',
  total_token_throughput: 'total_token_throughput',
};
/** Windows → column prefixes. `overall` repeats the summary's throughputs: only its cached / uncached split is new. */
const WINDOWS: Readonly<Record<string, string>> = { overall: '', last_window: 'last_window_', steady_state: 'post_warmup_' };
const OVERALL_NEW = new Set(['uncached_input_throughput', 'cached_input_throughput']);

/** The per-conversation statistics of a legacy `trace_summary.json` or an engine `TraceSummary` into `b`. */
export function addTraceSummary(b: FieldWriter, trace: JsonValue | undefined, fallback: number): void {
  if (!isJsonObject(trace)) return;
  const at = (o: JsonObject, key: string, f: number): number => keyLines.get(o)?.[key] ?? f;
  const count = trace.n_traces ?? trace.trace_count;
  if (typeof count === 'number' && Number.isInteger(count) && count > 0) b.set('conversations_measured', count, at(trace, Object.hasOwn(trace, 'n_traces') ? 'n_traces' : 'trace_count', fallback));
  // legacy: rows of {metric, mean, min, p50…}
  if (Array.isArray(trace.rows)) {
    for (const row of trace.rows) {
      if (!isJsonObject(row) || typeof row.metric !== 'string') continue;
      const spec = TRACE_METRICS[row.metric];
      if (!spec) continue;
      const line = at(row, 'metric', fallback);
      for (const [field, stat] of Object.entries(STATS)) {
        const v = row[field];
        if (typeof v === 'number') b.set(`${stat}_${spec[0]}`, scaleExact(v, spec[1]), at(row, field, line));
      }
    }
  }
  // engine: averages by id, percentiles by id
  if (isJsonObject(trace.averages)) {
    for (const [name, v] of Object.entries(trace.averages)) {
      const spec = TRACE_METRICS[name];
      if (spec && typeof v === 'number') b.set(`mean_${spec[0]}`, scaleExact(v, spec[1]), at(trace.averages, name, fallback));
    }
  }
  if (isJsonObject(trace.percentiles)) {
    for (const [name, stats] of Object.entries(trace.percentiles)) {
      const spec = TRACE_METRICS[name];
      if (!spec || !isJsonObject(stats)) continue;
      const line = at(trace.percentiles, name, fallback);
      for (const [field, stat] of Object.entries(STATS)) {
        const v = stats[field];
        if (typeof v === 'number') b.set(`${stat}_${spec[0]}`, scaleExact(v, spec[1]), at(stats, field, line));
      }
    }
  }
}

/** The throughput windows of a legacy `workload_throughput.json` or an engine `WorkloadSummary` into `b`. */
export function addWorkloadWindows(b: FieldWriter, workload: JsonValue | undefined, fallback: number): void {
  if (!isJsonObject(workload)) return;
  const at = (o: JsonObject, key: string, f: number): number => keyLines.get(o)?.[key] ?? f;
  const put = (window: string, stem: string | undefined, v: JsonValue | undefined, line: number): void => {
    const prefix = WINDOWS[window];
    if (prefix === undefined || stem === undefined || typeof v !== 'number') return;
    if (prefix === '' && !OVERALL_NEW.has(stem)) return;
    b.set(`${prefix}${stem}`, v, line);
  };
  if (Array.isArray(workload.rows)) {
    // legacy: rows of {metric, overall, last_window, steady_state}
    for (const row of workload.rows) {
      if (!isJsonObject(row) || typeof row.metric !== 'string') continue;
      const line = at(row, 'metric', fallback);
      for (const window of Object.keys(WINDOWS)) put(window, WINDOW_RATES[row.metric], row[window], at(row, window, line));
    }
  } else {
    // engine: {overall: {id: rate}, last_window: {…}, steady_state: {…}}
    for (const window of Object.keys(WINDOWS)) {
      const rates = workload[window];
      if (!isJsonObject(rates)) continue;
      for (const [id, v] of Object.entries(rates)) put(window, WINDOW_RATES[id], v, at(rates, id, at(workload, window, fallback)));
    }
  }
  // the windows themselves: the tail's length and the share of the wall time dropped before "steady state"
  const lastWindow = workload.last_window_s ?? workload.last_window_seconds;
  if (typeof lastWindow === 'number') b.set('last_window_s', lastWindow, at(workload, Object.hasOwn(workload, 'last_window_s') ? 'last_window_s' : 'last_window_seconds', fallback));
  const warmup = workload.warmup_frac ?? workload.steady_state_warmup_ratio;
  if (typeof warmup === 'number') b.set('post_warmup_ratio', warmup, at(workload, Object.hasOwn(workload, 'warmup_frac') ? 'warmup_frac' : 'steady_state_warmup_ratio', fallback));
}

/**
 * A legacy `trace_summary.json` or `workload_throughput.json`: more results of the run whose
 * `benchmark_summary.json` is beside it, as a `bench-metrics` record (build-runs.ts fills that run's
 * empty cells). Null, and an info, when it holds nothing this maps.
 */
export function legacyMetricsRecord(kind: 'legacy-trace' | 'legacy-throughput', value: JsonValue, at: SourcePos, client: string, sink: DiagnosticSink): ConfigRecord | null {
  const b = new FieldMapBuilder();
  if (kind === 'legacy-trace') addTraceSummary(b, value, at.line);
  else addWorkloadWindows(b, value, at.line);
  const mapped = Object.keys(b.fields).filter((k) => k !== 'conversations_measured' && k !== 'last_window_s' && k !== 'post_warmup_ratio');
  if (mapped.length === 0) {
    const rows = isJsonObject(value) && Array.isArray(value.rows) ? value.rows.length : 0;
    sink.report('table/ignored-block', at, `evalscope ${kind === 'legacy-trace' ? 'per-conversation summary' : 'workload throughput'} (${counted(rows, 'row')}, none of them a metric benchlens maps)`);
    return null;
  }
  b.set('client', client, at.line);
  return { kind: 'config', origin: 'bench-metrics', at, fields: b.fields, lines: b.lines };
}

/** Files claimed and said, not read: why, in one info each. */
export function reportUnread(kind: 'legacy-timeline' | 'engine-trace' | 'engine-workload', value: JsonValue, at: SourcePos, sink: DiagnosticSink): void {
  const points = isJsonObject(value) && Array.isArray(value.points) ? value.points.length : 0;
  if (kind === 'legacy-timeline') {
    sink.report('table/ignored-block', at, `evalscope workload timeline (${counted(points, 'point')}: cumulative client-side token counts at each successful request's completion, in s from the run's first request: the client's view, no server stats, so no timeline rows; its windowed rates are read from the workload_throughput.json beside it),`);
    return;
  }
  const what = kind === 'engine-trace' ? 'per-conversation summary (trace_summary.json)' : `workload windows${points > 0 ? ` and ${counted(points, 'cumulative-token point')}` : ''} (workload_timeline.json)`;
  sink.report('table/ignored-block', at, `evalscope perf engine per-load ${what}: the same values as its load's entry in the suite_summary.json two folders up, read there with the load's model and load,`);
}
