import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { firstKeyLine, isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { lookupTable } from '../../src/core/cells.js';
import { addExtraMeta, addInvocationConfig } from './config.js';

/** The tool's `BenchmarkConfig` (written first) or a step's executor config, with a step's keys. */
const SIGNATURE = /"max_vus"\s*:/;
const RESULT_KEYS = /"(?:benchmark_kind|warmup_duration_secs|executor_type|token_throughput_secs)"\s*:/;
/** The per-request companion (`<name>_raw.json`): `[{"id": "warmup", "responses": [{"num_prompt_tokens": …`. */
const RAW_SIGNATURE = /^\s*\[\s*\{\s*"id"\s*:\s*"[^"]*"\s*,\s*"responses"\s*:\s*\[\s*(?:\]|\{\s*"num_prompt_tokens"\s*:)/;

/** The sweep's warm-up step: one virtual user for `warmup_duration_secs`, to prewarm the server. */
const WARMUP_ID = 'warmup';

/**
 * The latency distributions of a step (`{p50, p60, p70, p80, p90, p95, p99, avg}` in ms, or, in
 * the first files, flat `<name>_avg`, `_p90`, `_p95`) → their canonical stems.
 */
const LATENCIES: Readonly<Record<string, string>> = lookupTable({
  time_to_first_token_ms: 'ttft',
  // per request: (last token − first token) / (generated tokens − 1), vLLM's TPOT
  inter_token_latency_ms: 'tpot',
  e2e_latency_ms: 'e2el',
});

/** huggingface/inference-benchmarker's results JSON (README.md): one run per measured step. */
export const grammar: Grammar = {
  id: 'inference-benchmarker-json',
  title: 'inference-benchmarker results JSON',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    if (SIGNATURE.test(head) && RESULT_KEYS.test(head) && /"results"\s*:\s*\[|"(?:executor_type|token_throughput_secs)"\s*:/.test(head)) {
      return { score: 0.85, reason: 'inference-benchmarker config (max_vus) and steps' };
    }
    if (RAW_SIGNATURE.test(head)) return { score: 0.8, reason: "inference-benchmarker's per-request responses" };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseJsonDocuments(source, sink).flatMap((doc) => toRuns(doc.value, doc.line, source, sink));
  },
};

function toRuns(value: JsonValue, docLine: number, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at = { file: source.path, line: docLine, column: 1 };
  if (Array.isArray(value) && value.every((v) => isJsonObject(v) && Array.isArray(v.responses))) {
    sink.report('table/ignored-block', at, `per-request responses of inference-benchmarker (${value.length} ${value.length === 1 ? 'step' : 'steps'}; the steps are read from the results file beside it)`);
    return [];
  }
  if (!isJsonObject(value) || !Array.isArray(value.results)) {
    sink.report('json/not-a-result', at, isJsonObject(value) ? Object.keys(value).slice(0, 6).join(', ') : typeof value);
    return [];
  }
  const top = value;
  const topLines = keyLines.get(top) ?? {};
  const config = isJsonObject(top.config) ? top.config : {};
  const configLines = keyLines.get(config) ?? {};
  const configLine = topLines.config ?? docLine;
  const runs: RunRecord[] = [];
  for (const [index, item] of (value.results as JsonValue[]).entries()) {
    if (!isJsonObject(item)) continue;
    const lines = keyLines.get(item) ?? {};
    const line = firstKeyLine(item) ?? topLines.results ?? docLine;
    const id = typeof item.id === 'string' ? item.id : null;
    if (id === WARMUP_ID) {
      sink.report('table/ignored-block', { file: source.path, line, column: 1 }, `warm-up step ${JSON.stringify(id)} (${describeLoad(item)}, run to prewarm the server before the measured steps)`);
      continue;
    }
    if (!hasMetrics(item)) {
      sink.report('json/not-a-result', { file: source.path, line, column: 1 }, Object.keys(item).slice(0, 6).join(', '));
      continue;
    }
    const builder = new FieldMapBuilder();
    addStep(builder, item, lines, line, index);
    addInvocationConfig(builder, config, configLines, configLine);
    builder.set('client', 'inference-benchmarker', line);
    addTimes(builder, top, topLines, docLine);
    addExtraMeta(builder, config.meta, configLines.meta ?? configLine);
    runs.push({ kind: 'run', at: { file: source.path, line, column: 1 }, label: null, complete: true, fields: builder.fields, lines: builder.lines });
  }
  return runs;
}

/** Whether a step holds any measured value (a counter or a latency distribution). */
function hasMetrics(step: JsonObject): boolean {
  return ['successful_requests', 'failed_requests', 'token_throughput_secs', 'request_rate'].some((k) => typeof step[k] === 'number')
    || Object.keys(step).some((k) => latencyKey(k) !== null);
}

/** One step: its load, its counts and throughputs, its latency distributions. */
function addStep(builder: FieldMapBuilder, step: JsonObject, lines: Readonly<Record<string, number>>, line: number, index: number): void {
  const at = (key: string): number => lines[key] ?? line;
  builder.set('step', typeof step.id === 'string' ? step.id : `#${index}`, at('id'));
  const executor = typeof step.executor_type === 'string' ? step.executor_type : undefined;
  builder.set('executor_type', executor, at('executor_type'));
  const exec = isJsonObject(step.config) ? step.config : {};
  const execLine = at('config');
  const vus = num(exec.max_vus);
  const rate = num(exec.rate);
  // ConstantArrivalRate: an open loop at `rate` req/s, `max_vus` only caps the requests in flight;
  // ConstantVUs (the `throughput` step): a closed loop of `max_vus` users, each sending its next
  // request when its last one ends
  if (executor === 'ConstantArrivalRate' || (executor === undefined && rate !== undefined)) {
    builder.set('request_rate', rate, execLine);
    builder.set('max_vus', vus, execLine);
  } else {
    builder.set('max_concurrency', vus, execLine);
  }
  builder.set('step_duration_s', num(exec.duration_secs), execLine);
  builder.set('completed', num(step.successful_requests), at('successful_requests'));
  builder.set('failed', num(step.failed_requests), at('failed_requests'));
  // first response's start to last response's end; 0 when the tool could not compute it
  const duration = num(step.duration_ms);
  if (duration !== undefined && duration > 0) builder.set('duration_s', duration / 1000, at('duration_ms'));
  builder.set('total_input_tokens', num(step.total_tokens_sent), at('total_tokens_sent'));
  builder.set('total_output_tokens', num(step.total_tokens), at('total_tokens'));
  // `request_rate` is the MEASURED successful requests per second, not the configured rate
  builder.set('request_throughput', num(step.request_rate), at('request_rate'));
  builder.set('output_throughput', num(step.token_throughput_secs), at('token_throughput_secs'));
  for (const [key, value] of Object.entries(step)) {
    const nested = LATENCIES[key];
    if (nested !== undefined && isJsonObject(value)) {
      for (const [stat, v] of Object.entries(value)) {
        const column = statColumn(stat, nested);
        if (column !== null) builder.set(column, latency(nested, v), at(key));
      }
      continue;
    }
    const flat = latencyKey(key);
    if (flat !== null) builder.set(flat, latency(flat.includes('_tpot_') ? 'tpot' : '', value), at(key));
  }
}

/**
 * A latency in ms. The tool gives a request of one generated token an inter-token latency of 0
 * (no decode step to time): a TPOT statistic of exactly 0 is no measurement, left out.
 */
function latency(stem: string, value: JsonValue | undefined): number | null | undefined {
  const v = num(value);
  return stem === 'tpot' && v === 0 ? null : v;
}

/** A flat latency key of the first files (`time_to_first_token_ms_p90`, `e2e_latency_ms_avg`) → its column. */
function latencyKey(key: string): string | null {
  const m = /^(time_to_first_token_ms|inter_token_latency_ms|e2e_latency_ms)_(avg|p\d+)$/.exec(key);
  const stem = m?.[1] ? LATENCIES[m[1]] : undefined;
  return stem !== undefined && m?.[2] ? statColumn(m[2], stem) : null;
}

/** `avg` → `mean_`, `p50` → `median_`, `p90` → `p90_`. */
function statColumn(stat: string, stem: string): string | null {
  if (stat === 'avg') return `mean_${stem}_ms`;
  if (stat === 'p50') return `median_${stem}_ms`;
  return /^p\d+$/.test(stat) ? `${stat}_${stem}_ms` : null;
}

/**
 * The invocation's start and end (RFC 3339, UTC), the same for every step: kept as
 * `benchmark_start_time` / `benchmark_end_time`, not as the run's own window (a step is a part of it).
 */
function addTimes(builder: FieldMapBuilder, top: JsonObject, lines: Readonly<Record<string, number>>, line: number): void {
  if (typeof top.start_time === 'string') builder.set('benchmark_start_time', top.start_time, lines.start_time ?? line);
  if (typeof top.end_time === 'string') builder.set('benchmark_end_time', top.end_time, lines.end_time ?? line);
}

/** What a step's executor config says of its load, for a message. */
function describeLoad(step: JsonObject): string {
  const exec = isJsonObject(step.config) ? step.config : {};
  const vus = num(exec.max_vus);
  const secs = num(exec.duration_secs);
  const parts = [vus === undefined ? null : `${vus} virtual ${vus === 1 ? 'user' : 'users'}`, secs === undefined ? null : `${secs} s`].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(' for ') : 'no load given';
}


function num(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
