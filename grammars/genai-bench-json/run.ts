import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { addScenario } from './scenario.js';

/**
 * `aggregated_metrics.stats.<metric>` (genai_bench/metrics/metrics.py, MetricStats) → column
 * pattern; `latency` ones are in the file's `_time_unit` (seconds unless `ms`). null: not read.
 */
const STATS: Readonly<Record<string, { readonly pattern: string; readonly latency?: true; readonly sum?: string } | null>> = {
  ttft: { pattern: '{stat}_ttft_ms', latency: true },
  tpot: { pattern: '{stat}_tpot_ms', latency: true },
  e2e_latency: { pattern: '{stat}_e2el_ms', latency: true },
  output_latency: { pattern: '{stat}_output_latency_ms', latency: true },
  output_inference_speed: { pattern: '{stat}_output_throughput_per_user' },
  num_input_tokens: { pattern: '{stat}_input_len', sum: 'total_input_tokens' },
  num_output_tokens: { pattern: '{stat}_output_len', sum: 'total_output_tokens' },
  // (later versions) the part of the output tokens the API reported as reasoning; 0 when it reported none
  num_reasoning_tokens: { pattern: '{stat}_reasoning_len', sum: 'total_reasoning_tokens' },
  total_tokens: { pattern: '{stat}_total_len', sum: 'total_tokens' },
  input_throughput: { pattern: '{stat}_input_throughput_per_request' },
  output_throughput: { pattern: '{stat}_output_throughput_per_request' },
};

/** RequestLevelMetrics.OUTPUT_METRICS_FIELDS: set to 0 for a request with no output (embeddings, re-rank). */
const OUTPUT_METRICS = new Set(['tpot', 'output_latency', 'output_inference_speed', 'num_output_tokens', 'num_reasoning_tokens', 'output_throughput']);

/**
 * Counts genai-bench writes as 0 when it has none to give: `num_reasoning_tokens` is 0 for every
 * request whose API reported no reasoning tokens, so a block whose max is 0 says nothing (left out).
 */
const ZERO_WHEN_UNREPORTED = new Set(['num_reasoning_tokens']);

/** StatField keys → the schema's statistic names (`p50` is the median; `sum` only for token counts). */
const STAT_NAMES: Readonly<Record<string, string>> = {
  min: 'min', max: 'max', mean: 'mean', stddev: 'std', p25: 'p25', p50: 'median', p75: 'p75', p90: 'p90', p95: 'p95', p99: 'p99',
};

/** Scalars of `aggregated_metrics` → columns (null: read elsewhere or not a result). */
const SCALARS: Readonly<Record<string, string | null>> = {
  scenario: null,
  num_concurrency: null,
  batch_size: null,
  iteration_type: null,
  stats: null,
  error_codes_frequency: null,
  run_duration: 'duration_s',
  mean_output_throughput_tokens_per_s: 'output_throughput',
  mean_input_throughput_tokens_per_s: 'input_throughput',
  mean_total_tokens_throughput_tokens_per_s: 'total_token_throughput',
  mean_total_chars_per_hour: 'total_chars_per_hour',
  requests_per_second: 'request_throughput',
  error_rate: 'error_rate',
  num_error_requests: 'failed',
  num_completed_requests: 'completed',
  num_requests: 'num_requests',
  total_arrivals: 'total_arrivals',
  arrival_requests_per_second: 'achieved_request_rate',
};

function num(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** True for the object genai-bench's AggregatedMetricsCollector.save writes. */
export function isRunObject(obj: JsonObject): boolean {
  return isJsonObject(obj.aggregated_metrics);
}

/** One run from a run JSON (`{aggregated_metrics, individual_request_metrics, _time_unit}`). */
export function toRun(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink, cut = false): RunRecord | null {
  const agg = obj.aggregated_metrics as JsonObject;
  const top = keyLines.get(obj) ?? {};
  const lines = keyLines.get(agg) ?? {};
  const aggLine = top.aggregated_metrics ?? at.line;
  const lineOf = (key: string): number => lines[key] ?? aggLine;
  const b = new FieldMapBuilder();
  const unit = obj._time_unit;
  // seconds unless the run was saved with `--metrics-time-unit ms` (files before that option:
  // seconds); a document cut before its last key (`cut`, JsonDocument.cut) may have lost it: latencies not read
  const latencyScale = unit === 'ms' ? 1 : unit === undefined && cut ? null : 1000;
  if (latencyScale === null) sink.report('json/cut-unit', at, 'the latency statistics', '_time_unit');

  const scenario = agg.scenario;
  if (typeof scenario === 'string') addScenario(b, scenario, lineOf('scenario'));
  addLoadPoint(b, agg, lineOf);

  // an embedding or re-rank run has no output: genai-bench writes 0 for every output metric
  const noOutput = isJsonObject(agg.stats) && isJsonObject(agg.stats.num_output_tokens) && agg.stats.num_output_tokens.max === 0;
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(agg)) {
    if (Object.hasOwn(SCALARS, key)) {
      const column = SCALARS[key];
      if (column && !(noOutput && column === 'output_throughput')) b.set(column, num(value), lineOf(key));
      continue;
    }
    // a later version's scalar (`summary_actual_qps`): kept under its own name
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      unknown.push(key);
      b.set(key, value, lineOf(key));
    }
  }
  const frequency = agg.error_codes_frequency;
  if (isJsonObject(frequency) && Object.keys(frequency).length > 0) b.set('error_code_frequency', JSON.stringify(frequency), lineOf('error_codes_frequency'));
  if (isJsonObject(agg.stats)) addStats(b, agg.stats, lineOf('stats'), latencyScale, unknown, noOutput);
  b.set('client', 'genai-bench', at.line);
  reportUnknownMetrics(unknown, sink, source.path, at.line);

  if (Object.hasOwn(obj, 'individual_request_metrics')) {
    // (never read: a skimmed file has null here; the count is the run's own)
    const n = num(agg.num_requests);
    const count = n === undefined ? '' : `, ${n} ${n === 1 ? 'request' : 'requests'}`;
    sink.report('table/ignored-block', { file: source.path, line: top.individual_request_metrics ?? at.line, column: 1 }, `genai-bench per-request metrics (individual_request_metrics${count}; the run is its aggregated_metrics)`);
  }
  const label = typeof scenario === 'string' && scenario.trim() !== '' ? scenario.trim() : undefined;
  return { kind: 'run', at: { ...at, line: aggLine }, label: label ?? null, complete: true, fields: b.fields, lines: b.lines };
}

/**
 * The load point: `iteration_type` says which field the run stepped (metrics.py). A batch-size run
 * (embeddings, re-rank) gives `batch_size`; an open-loop run of the async runner stores its QPS in
 * `num_concurrency` (cli.py) and alone sets `total_arrivals`: its `request_rate`.
 */
function addLoadPoint(b: FieldMapBuilder, agg: JsonObject, lineOf: (key: string) => number): void {
  const type = agg.iteration_type;
  if (type === 'batch_size') {
    b.set('batch_size', num(agg.batch_size), lineOf('batch_size'));
    return;
  }
  const value = num(agg.num_concurrency);
  if (value === undefined) return;
  const openLoop = num(agg.total_arrivals) !== undefined || num(agg.arrival_requests_per_second) !== undefined || type === 'request_rate';
  if (openLoop) b.set('request_rate', value, lineOf('num_concurrency'));
  else b.set('max_concurrency', value, lineOf('num_concurrency'));
}

function addStats(b: FieldMapBuilder, stats: JsonObject, statsLine: number, latencyScale: number | null, unknown: string[], noOutput: boolean): void {
  const lines = keyLines.get(stats) ?? {};
  for (const [metric, fields] of Object.entries(stats)) {
    if (!isJsonObject(fields)) continue;
    const line = lines[metric] ?? statsLine;
    const spec = STATS[metric];
    if (spec === null || (noOutput && OUTPUT_METRICS.has(metric)) || (spec?.latency === true && latencyScale === null)) continue;
    if (ZERO_WHEN_UNREPORTED.has(metric) && fields.max === 0) continue;
    if (spec === undefined) {
      // a metric of a later version: its mean under its own name, as written
      unknown.push(metric);
      b.set(metric, num(fields.mean), line);
      continue;
    }
    const fieldLines = keyLines.get(fields) ?? {};
    for (const [stat, value] of Object.entries(fields)) {
      const v = num(value);
      if (v === undefined) continue;
      const at = fieldLines[stat] ?? line;
      if (stat === 'sum') {
        if (spec.sum) b.set(spec.sum, Math.round(v), at);
        continue;
      }
      const name = STAT_NAMES[stat];
      if (name === undefined) continue;
      b.set(spec.pattern.replace('{stat}', name), spec.latency ? scaleExact(v, latencyScale ?? 1) : v, at);
    }
  }
}
