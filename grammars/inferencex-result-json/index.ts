import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { scaleExact } from '../../src/parse/values.js';
import { firstKeyLine, isJsonObject, type JsonObject, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { addParallelism, addPrecision, addSpec, divisorsOf, engineOf, gpuOf, isAgentic, type LineOf, num } from './config.js';
import { addNestedMetrics, isNestedAgentic } from './nested.js';

/** Keys every processed result has had since the first process_result.py (2025). */
const PER_GPU = /"output_tput_per_gpu"\s*:/;
const IDENTITY = [/"hw"\s*:/, /"conc"\s*:/, /"framework"\s*:/];
/**
 * The nested agentic aggregate's keys (utils/agentic/aggregation/, no top-level per-GPU keys):
 * literals, each a key's name with the quote json.dump writes after it.
 */
const NESTED = ['scenario_type":', 'request_metrics":', 'server_metrics":'];

/**
 * A latency statistic process_result.py converted from the client's `<stat>_<metric>_ms` (ms) to
 * `<stat>_<metric>` (SECONDS): `mean_ttft`, `p99.9_itl`, `std_e2el`.
 */
const LATENCY = /^(mean|median|std|min|max|p\d+(?:\.\d+)?)_(ttft|tpot|itl|e2el)$/;
/** `<stat>_intvty` = 1000 / `<stat>_tpot_ms`: derivable from the TPOT kept, never read (README). */
const INTERACTIVITY = /^(?:mean|median|std|min|max|p\d+(?:\.\d+)?)_intvty$/;

/** Keys read into columns (or on purpose not read); every other scalar key is a flag column. */
const READ = new Set([
  'hw', 'conc', 'model', 'framework', 'precision', 'spec_decoding', 'mtp', 'num_speculative_tokens', 'isl', 'osl',
  'benchmark_client', 'disagg', 'is_multinode', 'tp', 'ep', 'pp', 'dp_attention', 'dcp_size', 'pcp_size',
  'num_prefill_gpu', 'num_decode_gpu', 'prefill_num_workers', 'decode_num_workers',
  'prefill_tp', 'prefill_ep', 'prefill_pp', 'prefill_dp_attention', 'prefill_dcp_size', 'prefill_pcp_size',
  'decode_tp', 'decode_ep', 'decode_pp', 'decode_dp_attention', 'decode_dcp_size', 'decode_pcp_size',
  'tput_per_gpu', 'output_tput_per_gpu', 'input_tput_per_gpu', 'infmax_model_prefix', 'router',
]);

/**
 * An agentic aggregate's (process_agentic_result.py, flat layout) keys with a canonical column:
 * the run's wall time (s), its successful requests, the measured mean lengths per request.
 */
const AGENTIC_COLUMNS: Readonly<Record<string, string>> = Object.freeze({
  duration_seconds: 'duration_s',
  num_requests_successful: 'completed',
  mean_input_tokens: 'mean_input_len',
  mean_output_tokens_actual: 'mean_output_len',
});

/**
 * SemiAnalysis InferenceX (formerly InferenceMAX): `utils/process_result.py`'s `agg_<name>.json`,
 * one processed benchmark result, and `utils/collect_results.py`'s `agg_<exp>.json`, a JSON array
 * of them. One run per result object (README.md).
 */
export const grammar: Grammar = {
  id: 'inferencex-result-json',
  title: 'InferenceX (InferenceMAX) processed result JSON',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    if (PER_GPU.test(head)) {
      if (!IDENTITY.every((re) => re.test(head))) return NOT_MINE;
      return { score: 0.85, reason: 'JSON with InferenceX output_tput_per_gpu, hw, conc and framework keys' };
    }
    if (!NESTED.every((literal) => head.includes(literal)) || !IDENTITY.every((re) => re.test(head))) return NOT_MINE;
    return { score: 0.85, reason: 'JSON with InferenceX agentic scenario_type, request_metrics, server_metrics, hw, conc and framework keys' };
  },
  parse(source, sink) {
    const runs: RunRecord[] = [];
    // (a collected array cut short, the job killed while writing, is read up to its last whole value: json/cut)
    for (const doc of parseJsonDocuments(source, sink)) {
      const at = { file: source.path, line: doc.line, column: 1 };
      if (!isJsonObject(doc.value) && !Array.isArray(doc.value)) {
        sink.report('json/not-a-result', at, typeof doc.value);
        continue;
      }
      // collect_results.py: an array of every result of a sweep, one run each
      const objects = Array.isArray(doc.value) ? doc.value : [doc.value];
      for (const value of objects) {
        if (!isJsonObject(value)) continue;
        const run = toRun(value, value === doc.value ? at : { ...at, line: firstKeyLine(value) ?? at.line }, source, sink);
        if (run) runs.push(run);
      }
    }
    return runs;
  },
};

function toRun(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const lines = keyLines.get(obj) ?? {};
  const lineOf: LineOf = (key) => lines[key] ?? at.line;
  const nested = isNestedAgentic(obj);
  if (!nested && !Object.hasOwn(obj, 'output_tput_per_gpu') && !Object.hasOwn(obj, 'tput_per_gpu')) {
    sink.report('json/not-a-result', at, Object.keys(obj).slice(0, 6).join(', '));
    return null;
  }
  const family = obj.workload_family;
  if ((typeof family === 'string' && family !== 'llm' && family !== 'text') || obj.throughput_unit === 'samples/s') {
    // the image/video generation results: samples per second, no tokens
    sink.report('table/ignored-block', at, `InferenceX ${typeof family === 'string' ? family : 'non-text'} result (throughput in samples/s, no token metrics)`);
    return null;
  }
  const builder = new FieldMapBuilder();
  addIdentity(builder, obj, lineOf);
  addSpec(builder, obj, lineOf);
  addParallelism(builder, obj, lineOf);
  // the nested agentic layout: its metrics under request_metrics / server_metrics (nested.ts)
  if (nested) addNestedMetrics(builder, obj, lineOf, source, sink);
  else addThroughputs(builder, obj, lineOf, source, sink);
  addLatencies(builder, obj, lineOf);
  addExtras(builder, obj, lineOf, at, sink);
  return { kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines };
}

function addIdentity(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf): void {
  const str = (key: string): string | undefined => {
    const v = obj[key];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const model = str('model');
  if (model) builder.set('model', model, lineOf('model'));
  const prefix = str('infmax_model_prefix');
  if (prefix) builder.set('model_prefix', prefix, lineOf('infmax_model_prefix'));
  const framework = str('framework');
  if (framework) {
    builder.set('engine', engineOf(framework), lineOf('framework'));
    builder.set('framework', framework, lineOf('framework'));
  }
  const hw = str('hw');
  if (hw) {
    builder.set('gpu', gpuOf(hw), lineOf('hw'));
    builder.set('hw', hw, lineOf('hw'));
  }
  addPrecision(builder, obj.precision, lineOf('precision'));
  const client = str('benchmark_client');
  // an agentic aggregate's client is AIPerf replaying traces, not the benchmark_serving.py fork
  const native = isAgentic(obj) ? 'aiperf' : 'inferencex-benchmark-serving';
  builder.set('client', client === undefined || client === 'inferencex_native' ? native : client, lineOf(client ? 'benchmark_client' : 'hw'));
  builder.set('max_concurrency', num(obj.conc), lineOf('conc'));
  // ISL / OSL: the configured random lengths (0 for a result without text lengths)
  for (const [key, column] of [['isl', 'input_len'], ['osl', 'output_len']] as const) {
    const v = num(obj[key]);
    if (v !== undefined && v > 0) builder.set(column, v, lineOf(key));
  }
  const router = obj.router;
  if (isJsonObject(router)) {
    if (typeof router.name === 'string') builder.set('router', router.name, lineOf('router'));
    if (typeof router.version === 'string') builder.set('router_version', router.version, lineOf('router'));
  }
}

/**
 * The per-GPU throughputs are kept as written (`tput_per_gpu`, `output_tput_per_gpu`,
 * `input_tput_per_gpu`: InferenceX's own figures, over its own GPU counts) and the client's
 * whole-run throughputs recovered from them by the divisors process_result.py used, when the
 * three add up over those divisors (input + output = total).
 */
function addThroughputs(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf, source: TextSource, sink: DiagnosticSink): void {
  const total = num(obj.tput_per_gpu);
  const output = num(obj.output_tput_per_gpu);
  const input = num(obj.input_tput_per_gpu);
  builder.set('tput_per_gpu', total, lineOf('tput_per_gpu'));
  builder.set('output_tput_per_gpu', output, lineOf('output_tput_per_gpu'));
  builder.set('input_tput_per_gpu', input, lineOf('input_tput_per_gpu'));
  const d = divisorsOf(obj);
  if (d === null || total === undefined || output === undefined) return;
  const totalTput = scaleExact(total, d.total);
  const outputTput = scaleExact(output, d.output);
  const inputTput = input === undefined ? undefined : scaleExact(input, d.input);
  if (inputTput !== undefined && Math.abs(inputTput + outputTput - totalTput) > 1e-3 * Math.max(1, totalTput)) {
    const detail = `input ${input} × ${d.input} + output ${output} × ${d.output} ≠ total ${total} × ${d.total} GPUs`;
    sink.report('json/per-gpu-mismatch', { file: source.path, line: lineOf('tput_per_gpu'), column: 1 }, detail);
    return;
  }
  builder.set('total_token_throughput', totalTput, lineOf('tput_per_gpu'));
  builder.set('output_throughput', outputTput, lineOf('output_tput_per_gpu'));
  if (inputTput !== undefined) builder.set('input_throughput', inputTput, lineOf('input_tput_per_gpu'));
  // (the first version wrote no input_tput_per_gpu: the rest of the total)
  else builder.set('input_throughput', Number((totalTput - outputTput).toPrecision(12)), lineOf('tput_per_gpu'));
}

/** `<stat>_<metric>` in seconds → `<stat>_<metric>_ms`. */
function addLatencies(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf): void {
  for (const [key, value] of Object.entries(obj)) {
    if (!LATENCY.test(key)) continue;
    const v = num(value);
    if (v !== undefined) builder.set(`${key}_ms`, scaleExact(v, 1000), lineOf(key));
  }
}

/**
 * InferenceX's power figures → the shared energy columns (README, "Power and energy"): J, W, J per
 * request or token, tokens per J, as written. `utils/aggregate_power.py` (single node) and
 * `aggregate_power_multinode.py` (the `prefill_`/`decode_` role figures) integrate every GPU's
 * board power over the benchmark window: `total_gpu_energy_j` over all GPUs, `avg_total_gpu_power_w`
 * = that / the window, `avg_power_w` = that / the GPUs (PER GPU), a role's `*_avg_power_w` = its
 * energy / the window / its GPUs (per GPU). The older `process_result.py` wrote `mean_power_w`, the
 * sum of the busiest GPUs' mean nvidia-smi power (total), and `tok_per_watt_{total,output}` = tok/s /
 * that (tokens per J; `tok_per_watt` an alias of the total). The agentic aggregates get the same keys
 * at their top level (`utils/agentic/aggregation/power_adapter.py` runs the same two aggregators).
 */
const POWER_COLUMNS: Readonly<Record<string, string>> = Object.freeze({
  total_gpu_energy_j: 'gpu_energy_j',
  avg_total_gpu_power_w: 'gpu_power_w',
  avg_power_w: 'gpu_power_per_gpu_w',
  joules_per_successful_query: 'energy_per_request_j',
  joules_per_input_token: 'energy_per_input_token_j',
  joules_per_output_token: 'energy_per_output_token_j',
  joules_per_total_token: 'energy_per_token_j',
  prefill_gpu_energy_j: 'prefill_gpu_energy_j',
  decode_gpu_energy_j: 'decode_gpu_energy_j',
  prefill_avg_power_w: 'prefill_gpu_power_per_gpu_w',
  decode_avg_power_w: 'decode_gpu_power_per_gpu_w',
  prefill_joules_per_input_token: 'prefill_energy_per_input_token_j',
  decode_joules_per_output_token: 'decode_energy_per_output_token_j',
  mean_power_w: 'gpu_power_w',
  tok_per_watt_total: 'tokens_per_joule',
  tok_per_watt_output: 'output_tokens_per_joule',
  tok_per_watt: 'tokens_per_joule',
});
/** A figure read only when the file lacks the one it repeats (another version's, or an alias). */
const POWER_FALLBACK_OF: Readonly<Record<string, string>> = Object.freeze({
  mean_power_w: 'avg_total_gpu_power_w',
  tok_per_watt: 'tok_per_watt_total',
});

/** `power_valid` 0 / false: aggregate_power.py judged the run's telemetry invalid. */
function powerInvalid(obj: JsonObject): boolean {
  const v = obj.power_valid;
  return v === 0 || v === false || v === '0' || (typeof v === 'string' && v.trim().toLowerCase() === 'false');
}

/**
 * Every other scalar key (`image`, `kv_p2p_transfer`, `max_num_batched_tokens`, `power_valid`, a
 * fork's additions) as a flag column; the power figures into the shared energy columns, unless
 * `power_valid` is 0: then they stay flag columns under their own names, said in an info.
 */
function addExtras(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf, at: SourcePos, sink: DiagnosticSink): void {
  const invalid = powerInvalid(obj);
  const keptInvalid: string[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (READ.has(key) || LATENCY.test(key) || INTERACTIVITY.test(key) || value === null || typeof value === 'object') continue;
    const power = POWER_COLUMNS[key];
    const repeated = power === undefined ? undefined : POWER_FALLBACK_OF[key];
    // (a figure another one of the file repeats stays a flag column under its own name)
    if (power !== undefined && num(value) !== undefined && (repeated === undefined || num(obj[repeated]) === undefined)) {
      if (!invalid) {
        builder.set(power, num(value), lineOf(key));
        continue;
      }
      keptInvalid.push(key);
    }
    const canonical = isAgentic(obj) ? AGENTIC_COLUMNS[key] : undefined;
    if (canonical !== undefined) {
      const v = num(value);
      if (v !== undefined) builder.set(canonical, v, lineOf(key));
      continue;
    }
    if (key === 'prefill_hw' || key === 'decode_hw') {
      if (typeof value === 'string') builder.set(key, value, lineOf(key));
      continue;
    }
    addFlags(builder, { [key]: value as PyValue }, lineOf(key));
  }
  if (keptInvalid.length > 0) {
    const where = { ...at, line: lineOf('power_valid') };
    sink.report('table/unknown-metric', where, keptInvalid.length, `${keptInvalid.join(', ')} (power_valid is 0: InferenceX judged the run's power telemetry invalid, no energy column filled)`);
  }
}
