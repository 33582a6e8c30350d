import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type BenchRecord, type RunRecord } from '../../src/core/records.js';
import type { FieldValue, SourcePos } from '../../src/core/types.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { scaleExact } from '../../src/parse/values.js';
import { firstKeyLine, isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { isPerRequestExport, reportPerRequestExport } from './individual-responses.js';
import { DISTRIBUTIONS, SCALARS, splitStatKey, TOP_LEVEL } from './metrics.js';
import { addTokenTotals } from './totals.js';
import { detectsV1Raw, detectsV1Summary, isV1RawDump, isV1Summary, reportV1RawDump, toV1Run } from './v1.js';

/** A summary's flattened result keys (`results_ttft_s_quantiles_p50`, `results_num_completed_requests`). */
const SUMMARY_SIGNATURE =
  /"results_(?:(?:ttft_s|end_to_end_latency_s|inter_token_latency_s|request_output_throughput_token_per_s|number_(?:input|output)_tokens)_(?:quantiles_p\d+|mean|min|max|stddev)|mean_output_throughput_token_per_s|num_completed_requests(?:_per_min)?|num_requests_started|number_errors)"\s*:/;
/** The per-request export: a JSON array of request objects with llmperf's metric keys. */
const PER_REQUEST_START = /^\s*\[\s*(?:\{|$)/;
const PER_REQUEST_KEYS = [/"ttft_s"\s*:/, /"end_to_end_latency_s"\s*:/];
const SAMPLING_PREFIX = 'additional_sampling_params_';

/**
 * ray-project/llmperf `token_benchmark_ray.py`: `<name>_summary.json` (a run) and
 * `<name>_individual_responses.json` (none); LLMPerf v1 (2023, `llmval.py` / `llmperf.py`):
 * `<framework>-<ts>.json` (a run) and `<framework>-<ts>_raw.json` (none), in v1.ts.
 */
export const grammar: Grammar = {
  id: 'llmperf-json',
  title: 'LLMPerf (token_benchmark_ray.py) summary JSON',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    // (also a list of summaries a script collected: read element by element)
    if (SUMMARY_SIGNATURE.test(head)) return { score: 0.85, reason: 'JSON with llmperf results_* summary keys' };
    if (PER_REQUEST_START.test(head) && PER_REQUEST_KEYS.every((re) => re.test(head))) {
      return { score: 0.8, reason: 'JSON array of llmperf per-request metrics (individual responses)' };
    }
    if (detectsV1Summary(head)) return { score: 0.85, reason: 'JSON with LLMPerf v1 (llmperf.py) arguments and result keys' };
    if (detectsV1Raw(head)) return { score: 0.8, reason: 'JSON of LLMPerf v1 per-request columns (valid, ttft, total_time, …)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // a large array of requests is never parsed: it holds no run, only its count is said
    if (isPerRequestExport(source)) return reportPerRequestExport(source, sink);
    if (isV1RawDump(source)) return reportV1RawDump(source, sink);
    const runs: BenchRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const at = { file: source.path, line: doc.line, column: 1 };
      // a list of summaries (a script's collection of runs) is read element by element
      if (!isJsonObject(doc.value) && !Array.isArray(doc.value)) {
        sink.report('json/not-a-result', at, typeof doc.value);
        continue;
      }
      const objects = Array.isArray(doc.value) ? doc.value.filter(isJsonObject) : [doc.value];
      for (const obj of objects) {
        const objAt = obj === doc.value ? at : { ...at, line: firstKeyLine(obj) ?? at.line };
        if (isV1Summary(obj)) {
          runs.push(toV1Run(obj, objAt, source, sink));
          continue;
        }
        const run = toRun(obj, objAt, source, sink);
        if (run) runs.push(run);
      }
    }
    return runs;
  },
};

function toRun(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  const resultKeys = Object.keys(obj).filter((k) => k.startsWith('results_'));
  if (resultKeys.length === 0) {
    sink.report('json/not-a-result', at, Object.keys(obj).slice(0, 6).join(', '));
    return null;
  }
  const builder = new FieldMapBuilder();
  const unknown: string[] = [];
  for (const key of resultKeys) addResult(builder, key, obj[key] ?? null, lineOf(key), unknown);
  const frequency = obj.results_error_code_frequency;
  if (typeof frequency === 'string' && !/^\s*\{\s*\}\s*$/.test(frequency) && frequency !== '') {
    builder.set('error_code_frequency', frequency, lineOf('results_error_code_frequency'));
  }
  addDerived(builder, obj, lineOf);
  for (const [key, column] of Object.entries(TOP_LEVEL)) {
    if (column === null || !Object.hasOwn(obj, key)) continue;
    const value = column === 'model' || column === 'results_version' ? text(obj[key]) : number(obj[key]);
    builder.set(column, value, lineOf(key));
  }
  builder.set('end_time', endTime(obj.timestamp), lineOf('timestamp'));
  addExtras(builder, obj, lineOf);
  builder.set('client', 'llmperf', at.line);
  reportUnknownMetrics(unknown, sink, source.path, at.line);
  return { kind: 'run', at, label: labelOf(obj.name), complete: true, fields: builder.fields, lines: builder.lines };
}

/** One `results_` key: a statistic of a per-request metric, or a scalar of the run. */
function addResult(builder: FieldMapBuilder, key: string, value: JsonValue, line: number, unknown: string[]): void {
  const name = key.slice('results_'.length);
  const scalar = SCALARS[name];
  if (scalar !== undefined) {
    if (scalar === null) return;
    const v = number(value);
    builder.set(scalar.column, v === undefined ? undefined : scaleExact(v, scalar.scale ?? 1), line);
    return;
  }
  const stat = splitStatKey(key);
  const spec = stat ? DISTRIBUTIONS[stat.metric] : undefined;
  if (stat && spec) {
    const v = number(value);
    builder.set(spec.pattern.replace('{stat}', stat.stat), v === undefined ? undefined : scaleExact(v, spec.scale), line);
    return;
  }
  // a fork's metric (`results_client_ttft_s_mean`, `results_client_total_output_throughput`): kept
  // under its own name and unit, as the other grammars keep the metrics they do not know
  const metric = stat?.metric ?? name;
  unknown.push(metric);
  const column = stat === null || stat.stat === 'mean' ? metric : `${stat.stat}_${metric}`;
  builder.set(column, number(value) ?? (typeof value === 'string' || typeof value === 'boolean' ? value : undefined), line);
}

/**
 * What the summary holds only as a product: the run's wall time (`num_completed_requests` over its
 * rate per minute, as llmperf divided it) and its token totals (the successful requests' mean
 * length × their count: llmperf's mean is over exactly those requests).
 */
function addDerived(builder: FieldMapBuilder, obj: JsonObject, lineOf: (key: string) => number): void {
  const completed = number(obj.results_num_completed_requests);
  const perMin = number(obj.results_num_completed_requests_per_min);
  if (completed !== undefined && completed > 0 && perMin !== undefined && perMin > 0) {
    builder.set('duration_s', Number(((completed / perMin) * 60).toPrecision(12)), lineOf('results_num_completed_requests_per_min'));
  }
  if (completed === undefined || completed <= 0) return;
  addTokenTotals(builder, obj, completed, { input: 'results_number_input_tokens_mean', output: 'results_number_output_tokens_mean' }, number, lineOf);
}

/**
 * The sampling parameters sent with every request (`--additional-sampling-params`, flattened to
 * `additional_sampling_params_temperature`), `--metadata k=v` pairs (strings, merged into the top
 * level) and keys forks add: flag columns, as a result JSON's metadata are.
 */
function addExtras(builder: FieldMapBuilder, obj: JsonObject, lineOf: (key: string) => number): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key.startsWith('results_') || Object.hasOwn(TOP_LEVEL, key) || value === null) continue;
    if (key.startsWith(SAMPLING_PREFIX)) {
      addFlags(builder, { [key.slice(SAMPLING_PREFIX.length)]: value as PyValue }, lineOf(key));
      continue;
    }
    if (typeof value !== 'object') addFlags(builder, { [key]: value }, lineOf(key));
  }
  // a fork that does not flatten the summary
  const sampling = obj.additional_sampling_params;
  if (isJsonObject(sampling)) {
    for (const [key, value] of Object.entries(sampling)) {
      if (value !== null && typeof value !== 'object') addFlags(builder, { [key]: value }, lineOf('additional_sampling_params'));
    }
  }
}

/** `timestamp` (`int(time.time())` when the results were made, after the run) → UTC ISO time. */
function endTime(value: JsonValue | undefined): string | undefined {
  const s = number(value);
  if (s === undefined || s <= 0) return undefined;
  const d = new Date(s * 1000);
  return Number.isNaN(d.getTime()) ? undefined : `${d.toISOString().slice(0, 19)}Z`;
}

/** The summary's `name`: `<model>_<in>_<out>_summary` unless `--metadata name=…` replaced it (then a label). */
function labelOf(value: JsonValue | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' && !/_summary$/.test(value) ? value : null;
}

/** A finite number; numpy integers are written as strings (`json.dump(…, default=str)`): `"550"`. */
function number(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*$/i.test(value)) return Number(value);
  return undefined;
}

function text(value: JsonValue | undefined): FieldValue | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
