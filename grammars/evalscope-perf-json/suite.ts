import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { FieldValue, SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { argsConfig } from './args.js';
import { CLIENT, number } from './summary.js';
import { addTraceSummary, addWorkloadWindows } from './multi-turn.js';

/**
 * The 2026 perf engine (`evalscope/perf/engine/suite_runner.py`, `run_engine.py`): one folder per
 * suite, `<root>/<run_id>/`, with `suite_summary.json` (the whole `PerfSuiteResult`: the suite's
 * configuration, then per load its spec, summary and percentiles) beside `suite_config.json` and
 * `manifest.json`, and a folder per load, `runs/<NNN>-<mode>/`, holding that load's `summary.json`,
 * `percentiles.json`, `run_config.json`, `workload_timeline.json` (a load with a successful request)
 * and, for conversations (requests with a trace id), `trace_summary.json`. The suite summary alone
 * has model, load and results together: its loads are the runs, with their `trace_summary` and
 * `workload_summary` (multi-turn.ts); the per-load files hold the same values again and are said, not read.
 */

/** Literals of a suite summary's head (the suite configuration comes first, then the runs). */
export function isSuiteSummary(head: string): boolean {
  return head.includes('suite_config') && head.includes('run_spec') && head.includes('load_id');
}

/** A per-load file of the same suite: `summary.json` (RunSummary) or `percentiles.json` (metric → PercentileStats). */
export function perLoadKind(head: string): 'summary' | 'percentiles' | null {
  if (head.includes('succeeded') && head.includes('dropped') && head.includes('duration_seconds') && head.includes('averages')) return 'summary';
  if (head.includes('minimum') && head.includes('maximum') && head.includes('p99') && /"(?:latency|ttft|tpot|itl)"\s*:\s*\{/.test(head)) return 'percentiles';
  return null;
}

/** Per-request metric ids (`metrics/definitions.py`) → column stem and factor to its unit. */
export const METRICS: Readonly<Record<string, readonly [stem: string, factor: number]>> = {
  latency: ['e2el_ms', 1000],
  ttft: ['ttft_ms', 1],
  tpot: ['tpot_ms', 1],
  itl: ['itl_ms', 1],
  // start − scheduled time: the column inference-perf-json and guidellm-json give the same delay
  arrival_lag: ['schedule_delay_ms', 1],
  input_tokens: ['input_len', 1],
  output_tokens: ['output_len', 1],
  // conversation loads: TTFT of first turns (cold prefill) and of later ones
  first_turn_ttft: ['first_turn_ttft_ms', 1],
  subsequent_turn_ttft: ['subsequent_turn_ttft_ms', 1],
};
/** Means with no percentile column: the ratios are fractions already, the TTFT split in ms. */
const MEANS: Readonly<Record<string, string>> = {
  cache_hit_rate: 'prefix_cache_hit_rate',
  first_turn_ttft: 'mean_first_turn_ttft_ms',
  subsequent_turn_ttft: 'mean_subsequent_turn_ttft_ms',
  decoded_tokens_per_iter: 'client_spec_acceptance_length',
  approx_spec_acceptance_rate: 'client_spec_acceptance_rate',
  // accepted / proposed draft tokens as the server reports them, averaged over requests
  draft_acceptance_rate: 'mean_draft_acceptance_rate',
};
/** `PercentileStats` fields → statistic prefixes. */
const STATS: Readonly<Record<string, string>> = {
  minimum: 'min', p1: 'p1', p5: 'p5', p10: 'p10', p25: 'p25', p50: 'median', p75: 'p75', p90: 'p90', p95: 'p95', p99: 'p99', maximum: 'max',
};
/** `RunSummary` scalars → columns. */
export const SUMMARY: Readonly<Record<string, string>> = {
  total: 'num_requests',
  succeeded: 'completed',
  failed: 'failed',
  dropped: 'dropped',
  duration_seconds: 'duration_s',
  request_throughput: 'request_throughput',
  input_token_throughput: 'input_throughput',
  output_token_throughput: 'output_throughput',
  total_token_throughput: 'total_token_throughput',
  average_input_tokens: 'mean_input_len',
  average_output_tokens: 'mean_output_len',
};

/** One run per load of a suite summary, each with the suite's configuration. */
export function suiteRuns(suite: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const config = isJsonObject(suite.suite_config) ? suite.suite_config : {};
  const shared = suiteConfigFields(config, at, source);
  const runs = Array.isArray(suite.runs) ? suite.runs.filter(isJsonObject) : [];
  if (runs.length === 0) sink.report('table/no-rows', at, 'evalscope suite_summary.json with no run');
  return runs.map((run) => {
    const line = lineIn(suite, 'runs', at.line);
    const runAt: SourcePos = { ...at, line: lineIn(run, 'run_id', line) };
    const b = new FieldMapBuilder();
    addSummary(b, run.summary, runAt.line);
    addPercentiles(b, run.percentiles, runAt.line);
    addSpec(b, run.run_spec, runAt.line);
    // after the request-level values, which win: a conversation's first turn is a first-turn request
    addTraceSummary(b, run.trace_summary, lineIn(run, 'trace_summary', runAt.line));
    addWorkloadWindows(b, run.workload_summary, lineIn(run, 'workload_summary', runAt.line));
    addTotals(b);
    for (const [column, value] of Object.entries(shared.fields)) b.set(column, value, shared.lines[column] ?? at.line);
    b.set('client', CLIENT, runAt.line);
    return { kind: 'run', at: runAt, label: null, complete: true, fields: b.fields, lines: b.lines };
  });
}

/** The suite's target, workload and generation in the shape of a legacy args file, read as one. */
function suiteConfigFields(config: JsonObject, at: SourcePos, source: TextSource): { fields: Record<string, FieldValue>; lines: Record<string, number> } {
  const target = isJsonObject(config.target) ? config.target : {};
  const workload = isJsonObject(config.workload) ? config.workload : {};
  const generation = isJsonObject(config.generation) ? config.generation : {};
  const runtime = isJsonObject(config.runtime) ? config.runtime : {};
  const line = (o: JsonObject, key: string, fallback: string): number => lineIn(o, key, lineIn(config, fallback, at.line));
  const args: JsonObject = {};
  const lines: Record<string, number> = {};
  const put = (key: string, value: JsonValue | undefined, at: number): void => {
    if (value === undefined || value === null) return;
    args[key] = value;
    lines[key] = at;
  };
  put('model', target.model, line(target, 'model', 'target'));
  put('api', target.protocol, line(target, 'protocol', 'target'));
  put('tokenizer_path', target.tokenizer, line(target, 'tokenizer', 'target'));
  put('dataset', workload.name, line(workload, 'name', 'workload'));
  put('dataset_path', workload.path, line(workload, 'path', 'workload'));
  put('min_prompt_length', workload.min_prompt_length, line(workload, 'min_prompt_length', 'workload'));
  put('max_prompt_length', workload.max_prompt_length, line(workload, 'max_prompt_length', 'workload'));
  // a (min, max) range of output caps is no one length
  if (typeof generation.max_tokens === 'number') put('max_tokens', generation.max_tokens, line(generation, 'max_tokens', 'generation'));
  for (const key of ['min_tokens', 'temperature', 'top_p', 'top_k', 'frequency_penalty', 'repetition_penalty']) put(key, generation[key], line(generation, key, 'generation'));
  put('stream', generation.stream, line(generation, 'stream', 'generation'));
  put('extra_args', generation.extra, line(generation, 'extra', 'generation'));
  put('seed', runtime.seed, line(runtime, 'seed', 'runtime'));
  keyLines.set(args, lines);
  const record = argsConfig(args, at, source);
  const fields = { ...(record?.fields ?? {}) };
  delete fields.client;
  return { fields, lines: record?.lines ?? {} };
}

function addSummary(b: FieldMapBuilder, summary: JsonValue | undefined, fallback: number): void {
  if (!isJsonObject(summary)) return;
  const at = (key: string): number => lineIn(summary, key, fallback);
  for (const [key, column] of Object.entries(SUMMARY)) b.set(column, number(summary[key]), at(key));
  const averages = isJsonObject(summary.averages) ? summary.averages : {};
  const avgAt = (key: string): number => lineIn(averages, key, at('averages'));
  for (const [name, value] of Object.entries(averages)) {
    const v = number(value);
    if (v === undefined) continue;
    const spec = METRICS[name];
    if (spec) b.set(`mean_${spec[0]}`, scaleExact(v, spec[1]), avgAt(name));
    const mean = MEANS[name];
    if (mean) b.set(mean, v, avgAt(name));
    if (name === 'first_turn_ttft' || name === 'subsequent_turn_ttft') b.set('multi_turn', true, avgAt(name));
  }
}

function addPercentiles(b: FieldMapBuilder, percentiles: JsonValue | undefined, fallback: number): void {
  if (!isJsonObject(percentiles)) return;
  for (const [name, stats] of Object.entries(percentiles)) {
    const spec = METRICS[name];
    if (!spec || !isJsonObject(stats)) continue;
    for (const [field, stat] of Object.entries(STATS)) {
      const v = number(stats[field]);
      if (v !== undefined) b.set(`${stat}_${spec[0]}`, scaleExact(v, spec[1]), lineIn(stats, field, lineIn(percentiles, name, fallback)));
    }
  }
}

/** The load of a run: closed loop (concurrency), open loop (request rate) or conversations. */
function addSpec(b: FieldMapBuilder, spec: JsonValue | undefined, fallback: number): void {
  if (!isJsonObject(spec) || !isJsonObject(spec.load)) return;
  const load = spec.load;
  const at = (key: string): number => lineIn(load, key, lineIn(spec, 'load', fallback));
  const mode = typeof load.mode === 'string' ? load.mode : undefined;
  b.set('load_mode', mode, at('mode'));
  b.set('max_concurrency', integer(load.concurrency), at('concurrency'));
  b.set('request_rate', number(load.request_rate), at('request_rate'));
  b.set('num_prompts', integer(load.request_count), at('request_count'));
  b.set('max_outstanding', integer(load.max_outstanding), at('max_outstanding'));
  b.set('arrival', typeof load.arrival === 'string' ? load.arrival : undefined, at('arrival'));
  b.set('overflow_policy', typeof load.overflow_policy === 'string' ? load.overflow_policy : undefined, at('overflow_policy'));
  b.set('target_duration_s', number(load.duration), at('duration'));
  if (mode === 'conversation') {
    b.set('multi_turn', true, at('mode'));
    b.set('num_conversations', integer(load.conversation_count), at('conversation_count'));
    b.set('max_turns', integer(load.max_turns), at('max_turns'));
  }
  b.set('warmup_requests', integer(spec.warmup_count), lineIn(spec, 'warmup_count', fallback));
}

/** Token totals from the successful requests' mean lengths (the engine divides its sums by them). */
function addTotals(b: FieldMapBuilder): void {
  const completed = b.fields.completed;
  if (typeof completed !== 'number' || completed <= 0) return;
  for (const [total, mean] of [
    ['total_input_tokens', 'mean_input_len'],
    ['total_output_tokens', 'mean_output_len'],
  ] as const) {
    const m = b.fields[mean];
    if (typeof m === 'number') b.set(total, Math.round(m * completed), b.lines[mean] ?? 1);
  }
}

function integer(value: JsonValue | undefined): number | undefined {
  const v = number(value);
  return v !== undefined && Number.isInteger(v) && v > 0 ? v : undefined;
}

function lineIn(obj: JsonObject, key: string, fallback: number): number {
  return keyLines.get(obj)?.[key] ?? fallback;
}
