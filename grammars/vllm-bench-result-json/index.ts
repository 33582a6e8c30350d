import { withoutUnmeasuredLatencies } from '../_shared/none-completed.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import type { SourcePos } from '../../src/core/types.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { addFlags, isRenamedFlag, toField } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { scaleExact } from '../../src/parse/values.js';
import { servingResultObject } from '../_shared/json/result-object.js';
import { isJsonObject, type JsonDocument, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { lookupTable } from '../../src/core/cells.js';
import { isPytorchCopy, PYTORCH_COPY, reportPytorchCopy } from './pytorch-copy.js';
import { addSteadyState } from './steady-state.js';
import { addPerTurn, type TurnValues } from './per-turn.js';

/**
 * `--save-result` keys → canonical columns; `scale` converts units (percent → fraction);
 * `zeroUnmeasured`: 0 is what the benchmark writes when the run had nothing to measure it by.
 */
const KEYS: Readonly<Record<string, { column: string; scale?: number; zeroUnmeasured?: true } | null>> = lookupTable({
  model_id: { column: 'model' },
  backend: { column: 'backend' },
  num_prompts: { column: 'num_prompts' },
  request_rate: { column: 'request_rate' },
  burstiness: { column: 'burstiness' },
  max_concurrency: { column: 'max_concurrency' },
  // the Rust client's multi-turn run: the requests it keeps in flight (its conversations wait between turns)
  multi_turn_concurrency: { column: 'max_concurrency' },
  duration: { column: 'duration_s' },
  completed: { column: 'completed' },
  failed: { column: 'failed' },
  total_input_tokens: { column: 'total_input_tokens' },
  total_output_tokens: { column: 'total_output_tokens' },
  request_throughput: { column: 'request_throughput' },
  request_goodput: { column: 'request_goodput' },
  'request_goodput:': { column: 'request_goodput' },
  output_throughput: { column: 'output_throughput' },
  total_token_throughput: { column: 'total_token_throughput' },
  max_output_tokens_per_s: { column: 'peak_output_throughput' },
  max_concurrent_requests: { column: 'peak_concurrent_requests' },
  // audio seconds per second of benchmark: 0.0 for every run without audio input (the block
  // prints it only above 0), so no run without audio gets a real-time factor of 0
  rtfx: { column: 'rtfx', zeroUnmeasured: true },
  spec_decode_acceptance_rate: { column: 'spec_acceptance_rate', scale: 0.01 },
  spec_decode_acceptance_length: { column: 'spec_acceptance_length' },
  spec_decode_num_drafts: { column: 'spec_num_drafts' },
  spec_decode_draft_tokens: { column: 'spec_draft_tokens' },
  spec_decode_accepted_tokens: { column: 'spec_accepted_tokens' },
  spec_decode_per_position_acceptance_rates: { column: 'spec_per_position_acceptance' },
  // Per-request arrays and bookkeeping: read past, never columns.
  endpoint_type: null,
  label: null,
  tokenizer_id: null,
  input_lens: null,
  output_lens: null,
  ttfts: null,
  itls: null,
  start_times: null,
  generated_texts: null,
  errors: null,
  latencies: null,
  queue_times: null,
  rps_change_events: null,
  // the Rust `vllm-bench` (rust/src/bench/src/output/json.rs, 2026): each failed request's error,
  // lengths and timings (written whenever a request failed; `failed` counts them), and with
  // `--save-detailed` the server's own queue time and TTFT of each request
  failed_requests: null,
  server_queue_times: null,
  server_ttfts: null,
  // `vllm bench sweep serve`: a combination's name (the folder's serve combination is the label)
  _benchmark_name: null,
});

/** `--save-detailed` per-request arrays (KEYS reads past them): a large file is read without them. */
export const PER_REQUEST_KEYS: readonly string[] = [
  'input_lens', 'output_lens', 'ttfts', 'itls', 'start_times', 'generated_texts', 'errors', 'latencies', 'queue_times',
  'failed_requests', 'server_queue_times', 'server_ttfts',
];

const SIGNATURE = /"(?:model_id|tokenizer_id|endpoint_type)"\s*:/;
// other load generators' exports (issue 3 item 6). Spec-decoding study JSONL (`"NUM_SPEC_TOKENS": -1`)
// is read by specdecode-study-jsonl, which reuses this parser.
const STUDY_KEY = /"NUM_SPEC_TOKENS"\s*:/;
// GenAI-Perf/AIPerf exports nest each metric in a statistics object and may carry `endpoint_type`
// in their input_config; those are not vLLM results.
const STATS_OBJECT = /"(?:time_to_first_token|request_latency|request_throughput|output_token_throughput)"\s*:\s*\{/;
// EvalScope's `benchmark_args.json` names the model `model_id` too (evalscope-perf-json reads it).
// Two expressions with a literal each, not one alternation: this runs on every vLLM result's head,
// and an alternation of quoted keys tries each at every quote (some 8 µs a result, twice the rest).
const EVALSCOPE_ARGS = [/_prompt_length"\s*:/, /"log_every_n_query"\s*:/];
// A Spec-Bench answer line names its model `model_id` too (spec-bench-jsonl reads it).
const SPEC_BENCH_ANSWER = ['"question_id"', '"accept_lengths"'];

/** vLLM `--save-result` / `--append-result` JSON (one object per file, or several appended). */
export const grammar: Grammar = {
  id: 'vllm-bench-result-json',
  title: 'vLLM serving benchmark result JSON',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    if (PYTORCH_COPY.test(head)) return { score: 0.8, reason: "vLLM's PyTorch-benchmark-format copy of a result" };
    if (!SIGNATURE.test(head) || STATS_OBJECT.test(head) || STUDY_KEY.test(head) || EVALSCOPE_ARGS.some((re) => re.test(head)) || SPEC_BENCH_ANSWER.every((k) => head.includes(k))) return NOT_MINE;
    return { score: 0.8, reason: 'JSON with model_id / tokenizer_id keys' };
  },
  skim: PER_REQUEST_KEYS,
  parse(source, sink) {
    const variant = sweepVariant(source.path);
    return parseJsonDocuments(source, sink).flatMap((doc) => {
      if (isPytorchCopy(doc.value)) {
        reportPytorchCopy(doc.value, source.path, doc.line, sink);
        return [];
      }
      return resultObjects(doc).flatMap(({ value, line }) => toRun(value, line, variant, source, sink));
    });
  },
};

/**
 * The result objects of a document with their lines: the document itself, or each object of an
 * array of results (`vllm bench sweep serve` writes a combination's runs to `summary.json` too).
 */
function resultObjects(doc: JsonDocument): { value: JsonValue; line: number }[] {
  if (!Array.isArray(doc.value)) return [{ value: doc.value, line: doc.line }];
  return doc.value.map((value) => ({ value, line: firstKeyLine(value) ?? doc.line }));
}

function firstKeyLine(value: JsonValue): number | undefined {
  if (!isJsonObject(value)) return undefined;
  const lines = Object.values(keyLines.get(value) ?? {});
  return lines.length > 0 ? Math.min(...lines) : undefined;
}

/**
 * The configuration a `vllm bench sweep serve` result was run under, from its folder
 * (`SERVE--<serve name>-BENCH--<bench name>/run=0.json`): the serve combination's name (its
 * `_benchmark_name`, or its parameters as `k=v-k=v`) names the configuration. `sweep
 * serve_workload` adds the load point it explores (`…-WL--request_rate=5`): not part of the name,
 * which is the same at every load (the result states its load itself). Null elsewhere.
 */
export function sweepVariant(path: string): string | null {
  const folder = path.split('/').at(-2) ?? '';
  const m = /^SERVE--(.+?)(?:-BENCH--.*?)?(?:-WL--[^/]*)?$/.exec(folder);
  return m?.[1] ?? null;
}

function toRun(value: JsonValue, docLine: number, variant: string | null, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at = { file: source.path, line: docLine, column: 1 };
  const obj = servingResultObject(value, at, sink);
  if (obj === null) return [];
  const run = resultRun(obj, keyLines.get(obj) ?? {}, at, variant, sink);
  return run ? [run] : [];
}

/**
 * A `--save-result` object as a run: `lines` gives each key's line, `variant` the label when the
 * object has none. Null for a sweep's warm-up run (said). Also reads `vllm bench sweep`'s
 * `summary.csv` rows (grammars/vllm-bench-sweep), the same objects as a table.
 */
export function resultRun(obj: JsonObject, lines: Readonly<Record<string, number>>, at: SourcePos, variant: string | null, sink: DiagnosticSink): RunRecord | null {
  const docLine = at.line;
  // `vllm bench sweep serve --warmup-num-prompts`: its warm-up run is saved beside the measured ones
  if (obj.run_number === -1) {
    sink.report('json/warmup-run', at);
    return null;
  }
  const builder = new FieldMapBuilder();
  // `--ramp-up-strategy` sent requests at a rate rising from `ramp_up_start_rps` to
  // `ramp_up_end_rps` (kept as columns); its `request_rate` is the unused default, "inf": taken at
  // its word, the run would be paired with runs that sent every request at once (the first value set wins)
  if (typeof obj.ramp_up_strategy === 'string') builder.set('request_rate', null, lines.request_rate ?? docLine);
  // a sweep's serve overrides, merged into its results: `speculative_config` whole or dotted
  const speculative: Record<string, JsonValue> = {};
  let speculativeLine = docLine;
  for (const [key, value] of Object.entries(obj)) {
    const line = lines[key] ?? docLine;
    const known = KEYS[key];
    if (known === null || value === undefined) continue;
    const dotted = /^speculative[-_]config\.(.+)$/.exec(key);
    if (dotted?.[1]) {
      speculative[dotted[1].replaceAll('-', '_')] = value;
      speculativeLine = line;
    } else if (key === 'speculative_config') {
      addFlags(builder, { speculative_config: value as PyValue }, line);
    } else if (key === 'steady_state' && isJsonObject(value)) {
      addSteadyState(builder, value, line);
    } else if (key === 'mode' && value === 'multi_turn') {
      builder.set('multi_turn', true, line);
    } else if (key === 'per_turn_metrics' && Array.isArray(value) && value.every(isJsonObject)) {
      addPerTurn(builder, value.map(turnValues), line, { file: at.file, line, column: 1 }, sink);
    } else if (known) {
      builder.set(known.column, known.zeroUnmeasured && value === 0 ? null : convert(value, known.scale ?? 1), line);
    } else if (/_ms$/.test(key) && typeof value === 'number') {
      builder.set(statFirst(key, obj), value, line);
    } else if (value !== null && typeof value !== 'object' && isRenamedFlag(key)) {
      // `vllm bench sweep`'s serve and bench overrides merged into its results
      // (`tensor_parallel_size`, `dataset_name`, `random_input_len`): under their canonical columns
      addFlags(builder, { [key]: value }, line);
    } else if (value !== null && typeof value !== 'object') {
      // --metadata k=v values (strings) and keys newer than this table
      const field = toField(key === 'model' ? 'metadata_model' : key, value);
      if (field !== undefined) builder.set(key === 'model' ? 'metadata_model' : key, field, line);
    } else if (value !== null && typeof value === 'object') {
      // an array or object this table does not know: no column, but said
      const what = Array.isArray(value) ? `an array of ${value.length}` : 'an object';
      sink.report('table/ignored-block', { file: at.file, line, column: 1 }, `result key ${JSON.stringify(key)} (${what})`);
    }
  }
  if (Object.keys(speculative).length > 0) addFlags(builder, { speculative_config: speculative as PyValue }, speculativeLine);
  builder.set('client', 'vllm-bench-serve', docLine);
  withoutUnmeasuredLatencies(builder, at, sink);
  settleDataset(builder);
  const label = typeof obj.label === 'string' && obj.label !== '' ? obj.label : variant;
  return { kind: 'run', at, label, complete: true, fields: builder.fields, lines: builder.lines };
}

/** A `per_turn_metrics` element's values by canonical column (`turn_index`, `num_samples` are its place and count). */
function turnValues(turn: JsonObject): TurnValues {
  const values = new Map<string, number>();
  for (const [key, value] of Object.entries(turn)) {
    if (typeof value !== 'number' || key === 'turn_index' || key === 'num_samples') continue;
    values.set(KEYS[key]?.column ?? key, value);
  }
  return values;
}

/**
 * A latency key named metric first (`ttft_mean_ms`, `e2e_p99_ms`: wrappers and forks rewrite
 * vLLM's keys so) as vLLM names it, stat first (`mean_ttft_ms`, `p99_e2el_ms`), unless the object
 * has that key too (then both stay as they are). Kept under its own name, every latency of such a
 * file was null in the canonical columns, silently.
 */
function statFirst(key: string, obj: JsonObject): string {
  const m = /^(ttft|tpot|itl|e2el|e2e)_(mean|median|std|p\d+(?:\.\d+)?)_ms$/.exec(key);
  if (!m?.[1] || !m[2]) return key;
  const canonical = `${m[2]}_${m[1] === 'e2e' ? 'e2el' : m[1]}_ms`;
  return canonical in obj ? key : canonical;
}

function convert(value: JsonValue, scale: number): number | string | boolean | null | number[] | undefined {
  if (value === 'inf' || value === 'Infinity') return Infinity;
  if (typeof value === 'number') return scaleExact(value, scale);
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number').map((v) => scaleExact(v, scale));
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value)) return scaleExact(Number(value), scale);
  if (value !== null && typeof value === 'object') return undefined;
  return value;
}
