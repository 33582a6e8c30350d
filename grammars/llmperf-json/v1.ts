import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { counted } from '../../src/core/counted.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type BenchRecord, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { addFlags } from '../../src/normalize/flags.js';
import { scaleExact } from '../../src/parse/values.js';
import { keyLines, type JsonObject, type JsonValue } from '../_shared/json/index.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { addTokenTotals } from './totals.js';

/**
 * LLMPerf v1 (2023, before token_benchmark_ray.py): `llmval.py`, renamed `llmperf.py`, wrote
 * `<framework>-<ts>.json`, `json.dumps(vars(args) + results)` on one line, and
 * `<framework>-<ts>_raw.json`, the per-request pandas frame (`DataFrame.to_json()`, column-oriented).
 */

/** The summary: the script's own argument names beside its result keys. */
export const V1_SUMMARY_KEYS = [/"concur_requests"\s*:/, /"total_requests"\s*:/, /"(?:num_valid|num_exceptions|num_mismatch|raw_output|inter_token_delay)"\s*:/];
/** The per-request frame, column by column: `{"valid":{"0":"OK",…},"ttft":{…},…}` (or no request at all). */
const V1_RAW_START = /^\s*\{\s*"valid"\s*:\s*\{\s*(?:\}|"0"\s*:\s*"(?:OK|Mismatch|Exception)")/;
const V1_RAW_TTFT = /"ttft"\s*:\s*\{/;

export function detectsV1Summary(head: string): boolean {
  return V1_SUMMARY_KEYS.every((re) => re.test(head));
}

export function detectsV1Raw(head: string): boolean {
  return V1_RAW_START.test(head) && V1_RAW_TTFT.test(head);
}

/** A summary object of LLMPerf v1 (not a token_benchmark_ray.py summary, whose keys start `results_`). */
export function isV1Summary(obj: JsonObject): boolean {
  return Object.hasOwn(obj, 'concur_requests') && Object.hasOwn(obj, 'total_requests') && ['num_valid', 'num_exceptions', 'raw_output'].some((k) => Object.hasOwn(obj, k));
}

/**
 * The two layouts, told apart only by the order of the keys (json.dumps keeps the dict's order):
 * - `v1-llmval` (llmval.py, Sept 2023): `end_timestamp` and `total_time` come before `num_valid`;
 *   `out_tokens_per_s` is tokens_out / (e2e − ttft) and `inter_token_delay` (e2e − ttft) / tokens_out;
 * - `v1-llmperf` (llmperf.py, Oct–Dec 2023): the counts first, the metrics after them (left out when
 *   every request raised); `out_tokens_per_s` is tokens_out / e2e, `inter_token_delay` e2e / tokens_out.
 * Keys sorted by name (not the script's own writing: a re-serialized file) say neither.
 */
type Layout = 'v1-llmval' | 'v1-llmperf' | 'v1';

function layoutOf(obj: JsonObject): Layout {
  const keys = Object.keys(obj);
  if (keys.length > 2 && keys.every((k, i) => i === 0 || (keys[i - 1] as string) <= k)) return 'v1';
  const valid = keys.indexOf('num_valid');
  const end = keys.indexOf('end_timestamp');
  if (valid === -1) return 'v1';
  return end !== -1 && end < valid ? 'v1-llmval' : 'v1-llmperf';
}

/** Arguments of the script → columns; null: not a column (where the server was, the companion file, read apart). */
const V1_CONFIG: Readonly<Record<string, string | null>> = {
  framework: 'backend',
  model: 'model',
  concur_requests: 'max_concurrency',
  total_requests: 'num_prompts',
  api_base: null,
  raw_output: null,
  end_timestamp: null,
};

/** Result keys whose meaning is the same in both layouts → column and unit factor. */
const V1_RESULTS: Readonly<Record<string, { column: string; scale: number }>> = {
  num_valid: { column: 'num_valid', scale: 1 },
  num_mismatch: { column: 'num_mismatch', scale: 1 },
  num_exceptions: { column: 'failed', scale: 1 },
  valid_rate: { column: 'valid_rate', scale: 1 },
  mismatch_rate: { column: 'mismatch_rate', scale: 1 },
  exception_rate: { column: 'exception_rate', scale: 1 },
  // the mean end-to-end latency of the requests that did not raise, in seconds (not a duration)
  total_time: { column: 'mean_e2el_ms', scale: 1000 },
  // already ms, rounded to a whole ms by the script
  mean_ttft: { column: 'mean_ttft_ms', scale: 1 },
  mean_tokens_in: { column: 'mean_input_len', scale: 1 },
  mean_tokens_out: { column: 'mean_output_len', scale: 1 },
  // per request (input + output tokens) / e2e, averaged
  total_tokens_per_s: { column: 'mean_total_throughput_per_user', scale: 1 },
};

/** `out_tokens_per_s` and `inter_token_delay` (ms), whose definition changed between the layouts. */
const V1_BY_LAYOUT: Readonly<Record<Layout, Readonly<Record<string, string>>>> = {
  'v1-llmperf': { out_tokens_per_s: 'mean_output_throughput_per_user', inter_token_delay: 'mean_itl_incl_ttft_ms' },
  'v1-llmval': { out_tokens_per_s: 'mean_output_throughput_per_user_excl_ttft', inter_token_delay: 'mean_itl_excl_ttft_ms' },
  v1: { out_tokens_per_s: 'mean_out_tokens_per_s', inter_token_delay: 'mean_inter_token_delay_ms' },
};

export function toV1Run(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord {
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  const layout = layoutOf(obj);
  const builder = new FieldMapBuilder();
  const byLayout = V1_BY_LAYOUT[layout];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const result = V1_RESULTS[key];
    if (Object.hasOwn(V1_RESULTS, key) && result) {
      const v = number(value);
      builder.set(result.column, v === undefined ? undefined : scaleExact(v, result.scale), lineOf(key));
    } else if (Object.hasOwn(byLayout, key)) {
      builder.set(byLayout[key] as string, number(value), lineOf(key));
      if (layout === 'v1') unknown.push(key);
    } else if (Object.hasOwn(V1_CONFIG, key)) {
      const column = V1_CONFIG[key];
      if (column === 'max_concurrency' || column === 'num_prompts') builder.set(column, number(value), lineOf(key));
      else if (column && typeof value === 'string' && value !== '') builder.set(column, value, lineOf(key));
    } else if (value !== null && typeof value !== 'object') {
      // the other arguments (--min-lines, --max-lines, --req-lines, --max-tokens, --sleep, --random-seed, …)
      addFlags(builder, { [key]: value }, lineOf(key));
    }
  }
  addCounts(builder, obj, lineOf);
  if (obj.framework === 'vllm') builder.set('engine', 'vllm', lineOf('framework'));
  const end = endTime(obj.raw_output, source.path);
  if (end) builder.set('end_time', end, lineOf(typeof obj.raw_output === 'string' ? 'raw_output' : 'framework'));
  builder.set('client', 'llmperf', at.line);
  builder.set('llmperf_layout', layout, at.line);
  reportUnknownMetrics(unknown, sink, source.path, at.line);
  return { kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines };
}

/**
 * The requests that came back (valid or not: the metrics are over both) are the completed ones;
 * those that raised are the failed ones; all three are the requests sent (rounds of
 * `concur_requests`, `int(total_requests / concur_requests)` of them: fewer than `total_requests`
 * when it does not divide). Token totals: the means are over exactly the completed requests.
 */
function addCounts(builder: FieldMapBuilder, obj: JsonObject, lineOf: (key: string) => number): void {
  const valid = number(obj.num_valid);
  const mismatch = number(obj.num_mismatch);
  const exceptions = number(obj.num_exceptions);
  if (valid === undefined || mismatch === undefined) return;
  const completed = valid + mismatch;
  builder.set('completed', completed, lineOf('num_valid'));
  if (exceptions !== undefined) builder.set('num_requests_started', completed + exceptions, lineOf('num_exceptions'));
  if (completed <= 0) return;
  addTokenTotals(builder, obj, completed, { input: 'mean_tokens_in', output: 'mean_tokens_out' }, number, lineOf);
}

/**
 * `end_timestamp` is `datetime.fromtimestamp(ts).isoformat()`: the machine's LOCAL time, with no
 * offset. The same `ts` (epoch seconds) is in the file names, `raw_output` (`<framework>-<ts>_raw.json`)
 * and the summary's own (`<framework>-<ts>.json`): UTC from there.
 */
function endTime(rawOutput: JsonValue | undefined, path: string): string | undefined {
  const m = (typeof rawOutput === 'string' ? /-(\d{9,11})_raw\.json$/.exec(rawOutput) : null) ?? /-(\d{9,11})\.json$/.exec(path);
  if (!m?.[1]) return undefined;
  const d = new Date(Number(m[1]) * 1000);
  return Number.isNaN(d.getTime()) ? undefined : `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * `<framework>-<ts>_raw.json`: the per-request frame, no run (the summary beside it is the run). Said
 * with one `table/ignored-block` info counting its requests by their `valid` column (OK, Mismatch,
 * Exception), read from the text: the column comes first and holds nothing but those words.
 */
export function isV1RawDump(source: TextSource): boolean {
  const first = source.lines.find((l) => l.trim() !== '') ?? '';
  return V1_RAW_START.test(first);
}

export function reportV1RawDump(source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  const index = source.lines.findIndex((l) => l.trim() !== '');
  const text = source.lines.slice(Math.max(index, 0)).join('\n');
  const open = /"valid"\s*:\s*\{/.exec(text);
  const close = open ? text.indexOf('}', open.index + open[0].length) : -1;
  const column = open && close !== -1 ? text.slice(open.index + open[0].length, close) : '';
  const counts = { OK: 0, Mismatch: 0, Exception: 0 };
  for (const m of column.matchAll(/"\d+"\s*:\s*"(OK|Mismatch|Exception)"/g)) counts[m[1] as keyof typeof counts]++;
  const total = counts.OK + counts.Mismatch + counts.Exception;
  const parts = [counts.Mismatch > 0 ? `${counts.Mismatch} mismatched` : '', counts.Exception > 0 ? `${counts.Exception} raised` : ''].filter((p) => p !== '');
  const detail = `${counted(total, 'request')}${parts.length > 0 ? `, ${parts.join(', ')}` : ''}`;
  sink.report('table/ignored-block', { file: source.path, line: Math.max(index + 1, 1), column: 1 }, `LLMPerf v1 per-request frame (${detail}; the run is the <framework>-<ts>.json written with it)`);
  return [];
}

/** A finite number (json.dumps writes NaN and Infinity as such). */
function number(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
