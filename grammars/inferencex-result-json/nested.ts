import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { divisorsOf, type LineOf, num } from './config.js';

/**
 * The nested agentic aggregate (`utils/agentic/aggregation/process_agentic_result.py`, 2026): the
 * identity keys at the top as in the flat one, the metrics under `request_metrics` (latency in
 * seconds, token counts, throughputs, QPS, the trace's theoretical cache hit rate) and
 * `server_metrics` (the server's Prometheus counters as AIPerf summarized them), no top-level
 * `output_tput_per_gpu`. README.md, "Agentic aggregates".
 */
export function isNestedAgentic(obj: JsonObject): boolean {
  return isJsonObject(obj.request_metrics) && (isJsonObject(obj.server_metrics) || typeof obj.scenario_type === 'string');
}

/** A statistic's key in a nested object → the schema's statistic name (`p50` is the median). */
const STAT = /^(?:mean|median|std|min|max|p\d+(?:\.\d+)?)$/;

function statName(key: string): string | undefined {
  if (key === 'p50') return 'median';
  return STAT.test(key) ? key : undefined;
}

/** A nested object's values with the line of each key (the object's own line when it has none). */
interface Node {
  readonly obj: JsonObject;
  readonly lineOf: LineOf;
}

function child(parent: Node, key: string): Node | undefined {
  const obj = parent.obj[key];
  if (!isJsonObject(obj)) return undefined;
  const lines = keyLines.get(obj) ?? {};
  const own = parent.lineOf(key);
  return { obj, lineOf: (k) => lines[k] ?? own };
}

/** A number at `key` of `node` set under `column`, scaled by `factor` (exact to 12 digits). */
function setNum(builder: FieldMapBuilder, node: Node | undefined, key: string, column: string, factor = 1): void {
  if (!node) return;
  const v = num(node.obj[key]);
  if (v !== undefined) builder.set(column, scaleExact(v, factor), node.lineOf(key));
}

/** Every statistic of a distribution object (`{mean, p50, p75, p90, p95, std}`) as `<stat>_<stem><suffix>`. */
function setStats(builder: FieldMapBuilder, node: Node | undefined, stem: string, suffix: string, factor = 1): void {
  if (!node) return;
  for (const key of Object.keys(node.obj)) {
    const stat = statName(key);
    if (stat !== undefined) setNum(builder, node, key, `${stat}_${stem}${suffix}`, factor);
  }
}

/** The request metrics (the client's, over the successful profiling records) and the per-GPU throughputs. */
function addRequestMetrics(builder: FieldMapBuilder, top: Node, source: TextSource, sink: DiagnosticSink): void {
  const request = child(top, 'request_metrics');
  if (!request) return;
  // latency: seconds (AIPerf's ms / 1000) → ms; `intvty` (1 / ITL in s) is left out like the flat layout's
  const latency = child(request, 'latency');
  for (const metric of ['ttft', 'tpot', 'itl', 'e2el'] as const) setStats(builder, latency && child(latency, metric), metric, '_ms', 1000);
  // tokens per request, measured (output_expected: the lengths the traces asked for)
  const tokens = child(request, 'tokens');
  setStats(builder, tokens && child(tokens, 'input'), 'input', '_len');
  setStats(builder, tokens && child(tokens, 'output_actual'), 'output', '_len');
  setStats(builder, tokens && child(tokens, 'output_expected'), 'expected_output', '_len');
  // completions per 1 s window of the run
  const qps = child(request, 'qps');
  setStats(builder, qps, 'qps', '');
  setNum(builder, qps, 'window_seconds', 'qps_window_s');
  setNum(builder, child(request, 'cache'), 'theoretical_cache_hit_rate', 'theoretical_cache_hit_rate');
  addThroughputs(builder, top, child(request, 'throughput'), source, sink);
}

/**
 * Whole-run throughputs (tok/s over the span of the successful records: first start to last end)
 * and that span as `duration_s`; the per-GPU ones under InferenceX's names, as the flat layout's
 * (`tput_per_gpu`, …: each over every GPU of the run). `request_throughput` is the successful
 * requests over the same span, as the token throughputs are made.
 */
function addThroughputs(builder: FieldMapBuilder, top: Node, throughput: Node | undefined, source: TextSource, sink: DiagnosticSink): void {
  if (!throughput) return;
  const whole: Record<string, number | undefined> = {};
  for (const [key, column] of [['total', 'total_token_throughput'], ['output', 'output_throughput'], ['input', 'input_throughput']] as const) {
    const node = child(throughput, key);
    setNum(builder, node, 'tokens_per_second', column);
    whole[key] = num(node?.obj.tokens_per_second);
  }
  setNum(builder, throughput, 'duration_seconds', 'duration_s');
  const duration = num(throughput.obj.duration_seconds);
  const completed = num(top.obj.num_requests_successful);
  if (duration !== undefined && duration > 0 && completed !== undefined) {
    builder.set('request_throughput', Number((completed / duration).toPrecision(12)), throughput.lineOf('duration_seconds'));
  }
  const perGpu = child(throughput, 'per_gpu');
  if (!perGpu) return;
  const checks: string[] = [];
  const gpus = divisorsOf(top.obj)?.total;
  for (const [key, column, stem] of [['total_tput_tps', 'tput_per_gpu', 'total'], ['output_tput_tps', 'output_tput_per_gpu', 'output'], ['input_tput_tps', 'input_tput_per_gpu', 'input']] as const) {
    setNum(builder, perGpu, key, column);
    const per = num(perGpu.obj[key]);
    const all = whole[stem];
    // (process_agentic_result.py rounds every float to 5 decimals: compared to 0.1 %)
    if (per !== undefined && all !== undefined && gpus !== undefined && Math.abs(per * gpus - all) > 1e-3 * Math.max(1, all)) {
      checks.push(`${stem} ${per} × ${gpus} ≠ ${all}`);
    }
  }
  if (checks.length > 0) sink.report('json/per-gpu-mismatch', { file: source.path, line: throughput.lineOf('per_gpu'), column: 1 }, `${checks.join('; ')} GPUs`);
}

/** `server_metrics.cache` keys → columns (fractions 0..1, tokens). */
const SERVER_CACHE: ReadonlyArray<readonly [string, string]> = [
  // every cached prompt token (GPU and CPU/external tiers) over the prompt tokens: the canonical rate
  ['overall_cache_hit_rate', 'prefix_cache_hit_rate'],
  ['gpu_cache_hit_rate', 'gpu_prefix_cache_hit_rate'],
  ['cpu_cache_hit_rate', 'cpu_prefix_cache_hit_rate'],
  ['external_cache_hit_rate', 'external_prefix_cache_hit_rate'],
  ['prefix_cache_hits', 'server_prefix_cache_hits'],
  ['prefix_cache_queries', 'server_prefix_cache_queries'],
  ['external_prefix_cache_hits', 'server_external_prefix_cache_hits'],
  ['external_prefix_cache_queries', 'server_external_prefix_cache_queries'],
  ['frontend_cache_hit_rate', 'frontend_cache_hit_rate'],
  ['router_kv_hit_rate', 'router_kv_hit_rate'],
  ['router_shared_cache_hit_rate', 'router_shared_cache_hit_rate'],
  ['frontend_cached_tokens', 'frontend_cached_tokens'],
  ['frontend_input_tokens', 'frontend_input_tokens'],
];

/** `server_metrics.kv_cache` (`*_usage_pct` are fractions 0..1 despite the name: the gauge's peak). */
const SERVER_KV_CACHE: ReadonlyArray<readonly [string, string]> = [
  ['gpu_usage_pct', 'server_gpu_kv_cache_usage'],
  ['cpu_usage_pct', 'server_cpu_kv_cache_usage'],
  ['gpu_total_tokens', 'kv_cache_pool_tokens'],
  ['cpu_used_tokens', 'cpu_kv_cache_used_tokens'],
  ['cpu_total_tokens', 'cpu_kv_cache_total_tokens'],
];

/** `server_metrics.kv_offload`: bytes, s (the counters' totals), bytes/s (bytes over time). */
const SERVER_KV_OFFLOAD: ReadonlyArray<readonly [string, string]> = [
  ['bytes_gpu_to_cpu', 'kv_offload_bytes_gpu_to_cpu'],
  ['bytes_cpu_to_gpu', 'kv_offload_bytes_cpu_to_gpu'],
  ['time_gpu_to_cpu', 'kv_offload_time_gpu_to_cpu'],
  ['time_cpu_to_gpu', 'kv_offload_time_cpu_to_gpu'],
  ['bandwidth_gpu_to_cpu_bytes_per_second', 'kv_offload_bandwidth_gpu_to_cpu'],
  ['bandwidth_cpu_to_gpu_bytes_per_second', 'kv_offload_bandwidth_cpu_to_gpu'],
];

/** `server_metrics.tokens`: the server's prompt / generation token counters (else the records' sums). */
const SERVER_TOKENS: ReadonlyArray<readonly [string, string]> = [
  ['prompt_total', 'total_prompt_tokens'],
  ['generation_total', 'total_generation_tokens'],
];

/** `server_metrics.tokens.prompt_by_source`: prompt tokens by where their KV came from. */
const PROMPT_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['gpu_cache_hit', 'prompt_tokens_gpu_cache_hit'],
  ['cpu_or_external_cache_hit', 'prompt_tokens_cpu_or_external_cache_hit'],
  ['computed', 'prompt_tokens_computed'],
];

/** HiCache tiers of SGLang's `cached_tokens` counter (`cache_source` label) → sglang-bench-serving's columns. */
const CACHE_TIERS: Readonly<Record<string, string>> = Object.freeze({ device: 'cached_tokens_device', host: 'cached_tokens_host', storage: 'cached_tokens_storage' });

function setAll(builder: FieldMapBuilder, node: Node | undefined, map: ReadonlyArray<readonly [string, string]>): void {
  for (const [key, column] of map) setNum(builder, node, key, column);
}

/** The server metrics (absent ones are null upstream: no column). */
function addServerMetrics(builder: FieldMapBuilder, top: Node): void {
  const server = child(top, 'server_metrics');
  if (!server) return;
  const adapter = server.obj.adapter;
  if (typeof adapter === 'string' && adapter !== 'none') builder.set('server_metrics_adapter', adapter, server.lineOf('adapter'));
  const cache = child(server, 'cache');
  setAll(builder, cache, SERVER_CACHE);
  const bySource = cache && child(cache, 'cached_tokens_by_source');
  if (bySource) for (const [label, column] of Object.entries(CACHE_TIERS)) setNum(builder, bySource, label, column);
  setAll(builder, child(server, 'kv_cache'), SERVER_KV_CACHE);
  setAll(builder, child(server, 'kv_offload'), SERVER_KV_OFFLOAD);
  const tokens = child(server, 'tokens');
  setAll(builder, tokens, SERVER_TOKENS);
  setAll(builder, tokens && child(tokens, 'prompt_by_source'), PROMPT_SOURCES);
}

/** `request_accounting`: records dropped before the metrics (warm-up phase, errors). */
function addAccounting(builder: FieldMapBuilder, top: Node): void {
  const accounting = child(top, 'request_accounting');
  setNum(builder, accounting, 'records_warmup_dropped', 'num_requests_warmup');
  setNum(builder, accounting, 'records_error_dropped', 'num_requests_errored');
}

/** `kv_offload_backend`: `{name, version}` in this layout (a string in the flat one), null when none. */
function addOffloadBackend(builder: FieldMapBuilder, top: Node): void {
  const backend = child(top, 'kv_offload_backend');
  if (!backend) return;
  const set = (key: string, column: string): void => {
    const v: JsonValue | undefined = backend.obj[key];
    if (typeof v === 'string' && v.trim() !== '') builder.set(column, v.trim() as FieldValue, backend.lineOf(key));
  };
  set('name', 'kv_offload_backend');
  set('version', 'kv_offload_backend_version');
}

/** Every metric of a nested agentic aggregate, each at its own key's line. */
export function addNestedMetrics(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf, source: TextSource, sink: DiagnosticSink): void {
  const top: Node = { obj, lineOf };
  addRequestMetrics(builder, top, source, sink);
  addServerMetrics(builder, top);
  addAccounting(builder, top);
  addOffloadBackend(builder, top);
}
