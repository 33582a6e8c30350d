import { lookupTable } from '../../src/core/cells.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * The run columns of one inference-perf lifecycle report (`summarize_requests` in
 * kubernetes-sigs/inference-perf `inference_perf/reportgen/base.py`, README.md): its load, request
 * counts, latency distributions (SECONDS in the file, ms here), throughputs and token counts.
 */
export function addStageFields(builder: FieldMapBuilder, report: JsonObject, line: number): void {
  const lines = keyLines.get(report) ?? {};
  const load = objectOr(report.load_summary);
  if (load) addLoad(builder, load, lines.load_summary ?? line);
  builder.set('duration_s', num(report.benchmark_time_seconds), lines.benchmark_time_seconds ?? line);
  const successes = objectOr(report.successes);
  if (successes) addSuccesses(builder, successes, lines.successes ?? line);
  const failures = objectOr(report.failures);
  if (failures) {
    const at = keyLines.get(failures) ?? {};
    builder.set('failed', num(failures.count), at.count ?? lines.failures ?? line);
    addDistribution(builder, failures.request_latency, '{stat}_failed_e2el_ms', 1000, at.request_latency ?? line);
  }
  const retries = objectOr(report.retries);
  if (retries) addCounts(builder, retries, RETRY_COUNTS, lines.retries ?? line);
}

/**
 * `load_summary`: `requested_rate` is the stage's configured QPS, except in a `concurrent` stage
 * (the one with `concurrency`), where inference-perf sets the stage's rate to its `num_requests`
 * (all of them enqueued within one second, the workers gated by the concurrency): that number is
 * the stage's request count, not a rate.
 */
function addLoad(builder: FieldMapBuilder, load: JsonObject, line: number): void {
  const at = keyLines.get(load) ?? {};
  const concurrency = num(load.concurrency);
  const rate = num(load.requested_rate);
  if (concurrency !== undefined) {
    builder.set('max_concurrency', concurrency, at.concurrency ?? line);
    builder.set('num_prompts', rate, at.requested_rate ?? line);
  } else {
    builder.set('request_rate', rate, at.requested_rate ?? line);
  }
  builder.set('num_requests', num(load.count), at.count ?? line);
  builder.set('achieved_request_rate', num(load.achieved_rate), at.achieved_rate ?? line);
  builder.set('send_duration_s', num(load.send_duration), at.send_duration ?? line);
  // `schedule_delay` (named `schedule_accuracy` in the first reports): start time − scheduled time, s
  const delay = load.schedule_delay ?? load.schedule_accuracy;
  addDistribution(builder, delay, '{stat}_schedule_delay_ms', 1000, at.schedule_delay ?? at.schedule_accuracy ?? line);
}

/** `successes.latency` entries (seconds) → ms columns. */
const LATENCIES: Readonly<Record<string, string>> = lookupTable({
  request_latency: '{stat}_e2el_ms',
  time_to_first_token: '{stat}_ttft_ms',
  time_per_output_token: '{stat}_tpot_ms',
  inter_token_latency: '{stat}_itl_ms',
  normalized_time_per_output_token: '{stat}_ntpot_ms',
});

/** `successes.throughput` entries, per second, over the report's whole span (first start to last end). */
const THROUGHPUTS: Readonly<Record<string, string>> = lookupTable({
  requests_per_sec: 'request_throughput',
  input_tokens_per_sec: 'input_throughput',
  output_tokens_per_sec: 'output_throughput',
  total_tokens_per_sec: 'total_token_throughput',
});

/** Multimodal throughputs: written as 0.0 for every text run, so kept only when some were sent. */
const MEDIA_THROUGHPUTS: Readonly<Record<string, string>> = lookupTable({
  images_per_sec: 'image_throughput',
  videos_per_sec: 'video_throughput',
  audios_per_sec: 'audio_throughput',
});

const GOODPUT_COUNTS: Readonly<Record<string, string>> = lookupTable({
  request_goodput: 'request_goodput',
  token_goodput: 'token_goodput',
  good_requests: 'good_requests',
});

const RETRY_COUNTS: Readonly<Record<string, string>> = lookupTable({
  requests_retried: 'retried_requests',
  attempts: 'retry_attempts',
  recovered: 'retries_recovered',
});

function addSuccesses(builder: FieldMapBuilder, successes: JsonObject, line: number): void {
  const at = keyLines.get(successes) ?? {};
  builder.set('completed', num(successes.count), at.count ?? line);
  const latency = objectOr(successes.latency);
  if (latency) {
    const latencyAt = keyLines.get(latency) ?? {};
    for (const [key, pattern] of Object.entries(LATENCIES)) addDistribution(builder, latency[key], pattern, 1000, latencyAt[key] ?? at.latency ?? line);
  }
  const throughput = objectOr(successes.throughput);
  if (throughput) {
    const throughputAt = keyLines.get(throughput) ?? {};
    for (const [key, column] of Object.entries(THROUGHPUTS)) builder.set(column, num(throughput[key]), throughputAt[key] ?? line);
    for (const [key, column] of Object.entries(MEDIA_THROUGHPUTS)) {
      const v = num(throughput[key]);
      if (v !== undefined && v > 0) builder.set(column, v, throughputAt[key] ?? line);
    }
  }
  addTokens(builder, successes, at, line);
  builder.set('token_count_mismatches', num(successes.token_count_mismatches), at.token_count_mismatches ?? line);
  addDistribution(builder, successes.request_size_bytes, '{stat}_request_size_bytes', 1, at.request_size_bytes ?? line);
  // `slo_metrics` until it was renamed `goodput_metrics`
  const goodputKey = isJsonObject(successes.goodput_metrics) ? 'goodput_metrics' : 'slo_metrics';
  const goodput = objectOr(successes[goodputKey]);
  if (goodput) addCounts(builder, goodput, GOODPUT_COUNTS, at[goodputKey] ?? line);
}

/**
 * Token counts. Current reports: `prompt_tokens` / `output_tokens` with the successful requests'
 * `total` and their per-request distribution (the server's `usage` counts, the client's where the
 * server gave none); `prompt_tokens.cached` from `usage.prompt_tokens_details` (0 when the server
 * says nothing, so a 0 is not kept). The first reports: `prompt_len` / `output_len` distributions only
 * (current reports keep `output_len`, the client's own re-tokenized count: the distribution is read from
 * `output_tokens` when there is one).
 */
function addTokens(builder: FieldMapBuilder, successes: JsonObject, at: Record<string, number>, line: number): void {
  const prompt = objectOr(successes.prompt_tokens);
  const output = objectOr(successes.output_tokens);
  const total = (o: JsonObject | null): number | undefined => {
    const v = num(o?.total);
    return v === undefined ? undefined : Math.round(v);
  };
  builder.set('total_input_tokens', total(prompt), at.prompt_tokens ?? line);
  builder.set('total_output_tokens', total(output), at.output_tokens ?? line);
  const cached = num(prompt?.cached);
  if (cached !== undefined && cached > 0) builder.set('total_cached_tokens', Math.round(cached), at.prompt_tokens ?? line);
  addDistribution(builder, prompt ?? successes.prompt_len, '{stat}_input_len', 1, (prompt ? at.prompt_tokens : at.prompt_len) ?? line);
  addDistribution(builder, output ?? successes.output_len, '{stat}_output_len', 1, (output ? at.output_tokens : at.output_len) ?? line);
}

function addCounts(builder: FieldMapBuilder, obj: JsonObject, table: Readonly<Record<string, string>>, line: number): void {
  const at = keyLines.get(obj) ?? {};
  for (const [key, column] of Object.entries(table)) builder.set(column, num(obj[key]), at[key] ?? line);
}

/**
 * Adds one `summarize()` object (`{mean, min, max, median, p0.1, p1, …, p99.9}`; the first reports:
 * `{mean, min, p10, p50, p90, max}`) as `{stat}` columns; `p50` is the median. Other keys of the
 * object (`total`, `cached`) are not statistics. null (no request had the value: TTFT of a
 * non-streamed run) adds nothing.
 */
export function addDistribution(builder: FieldMapBuilder, value: JsonValue | undefined, pattern: string, scale: number, line: number): void {
  const summary = objectOr(value);
  if (!summary) return;
  const at = keyLines.get(summary) ?? {};
  for (const [key, v] of Object.entries(summary)) {
    const stat = statName(key);
    if (stat === null || typeof v !== 'number' || !Number.isFinite(v)) continue;
    builder.set(pattern.replace('{stat}', stat), scaleExact(v, scale), at[key] ?? line);
  }
}

/** A `summarize()` key as a column statistic: `mean`, `min`, `max`, `median` (`p50`), `p0.1` … `p99.9`. */
export function statName(key: string): string | null {
  if (key === 'mean' || key === 'min' || key === 'max' || key === 'median') return key;
  const m = /^p(\d+(?:\.\d+)?)$/.exec(key);
  if (!m?.[1]) return null;
  const n = Number(m[1]);
  return n === 50 ? 'median' : `p${n}`;
}

function objectOr(value: JsonValue | undefined): JsonObject | null {
  return isJsonObject(value) ? value : null;
}

function num(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
