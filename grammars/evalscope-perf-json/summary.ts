import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { percentToFraction, scaleExact } from '../../src/parse/values.js';
import { type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';

/** The client every evalscope run is given (and its args file names, for linkBenchConfig). */
export const CLIENT = 'evalscope-perf';

interface Column {
  readonly column: string;
  /** Factor to the column's unit: 1000 for a latency in seconds. */
  readonly scale?: number;
  /** `rate`: -1 means no limit (Infinity); `percent`: 0..100 → fraction. */
  readonly kind?: 'rate' | 'percent' | 'int';
}

/**
 * `benchmark_summary.json` keys → canonical columns, every spelling evalscope has written:
 * 2024 (`Metrics` in perf/utils/benchmark_util.py: `Average latency (s)`, `Expected number of
 * requests`), 2025 (perf/utils/perf_constants.py, `Request rate (req/s)`, `Average inter-token
 * latency (s)`) and 2026 (perf_constants.py renamed: `Test Duration (s)`, `Avg Latency (s)`, the
 * token latencies in ms: `TTFT (ms)`).
 */
export const SUMMARY_KEYS: Readonly<Record<string, Column | null>> = {
  'Time taken for tests (s)': { column: 'duration_s' },
  'Test Duration (s)': { column: 'duration_s' },
  'Number of concurrency': { column: 'max_concurrency', kind: 'int' },
  Concurrency: { column: 'max_concurrency', kind: 'int' },
  'Request rate (req/s)': { column: 'request_rate', kind: 'rate' },
  'Request Rate (req/s)': { column: 'request_rate', kind: 'rate' },
  'Expected number of requests': { column: 'num_prompts', kind: 'int' },
  'Total requests': { column: 'num_requests', kind: 'int' },
  'Total Requests': { column: 'num_requests', kind: 'int' },
  'Succeed requests': { column: 'completed', kind: 'int' },
  'Success Requests': { column: 'completed', kind: 'int' },
  'Failed requests': { column: 'failed', kind: 'int' },
  'Failed Requests': { column: 'failed', kind: 'int' },
  'Output token throughput (tok/s)': { column: 'output_throughput' },
  'Output Throughput (tok/s)': { column: 'output_throughput' },
  'Total token throughput (tok/s)': { column: 'total_token_throughput' },
  'Total Throughput (tok/s)': { column: 'total_token_throughput' },
  'Input token throughput (tok/s)': { column: 'input_throughput' },
  'Input Throughput (tok/s)': { column: 'input_throughput' },
  // the first 2024 spelling (`Metrics` in perf/utils/benchmark_util.py): output tokens / test time, successful requests / test time
  'Throughput(average tokens/s)': { column: 'output_throughput' },
  'Average QPS': { column: 'request_throughput' },
  'Request throughput (req/s)': { column: 'request_throughput' },
  'Req Throughput (req/s)': { column: 'request_throughput' },
  'Average latency (s)': { column: 'mean_e2el_ms', scale: 1000 },
  'Avg Latency (s)': { column: 'mean_e2el_ms', scale: 1000 },
  'Average time to first token (s)': { column: 'mean_ttft_ms', scale: 1000 },
  'TTFT (ms)': { column: 'mean_ttft_ms' },
  'Average time per output token (s)': { column: 'mean_tpot_ms', scale: 1000 },
  'TPOT (ms)': { column: 'mean_tpot_ms' },
  'Average inter-token latency (s)': { column: 'mean_itl_ms', scale: 1000 },
  'ITL (ms)': { column: 'mean_itl_ms' },
  'Average input tokens per request': { column: 'mean_input_len' },
  'Avg Input Tokens': { column: 'mean_input_len' },
  'Average output tokens per request': { column: 'mean_output_len' },
  'Avg Output Tokens': { column: 'mean_output_len' },
  // speculative decoding as the client sees it (perf/utils/benchmark_util.py): L = (tokens − 1) / (chunks − 1)
  // per streamed request, averaged over those above 1, and p = 1 − 1/L, a fraction in the JSON
  'Decoded Tok/Iter': { column: 'client_spec_acceptance_length' },
  'Average decoded tokens per iter (tok/iter)': { column: 'client_spec_acceptance_length' },
  'Spec. Accept Rate': { column: 'client_spec_acceptance_rate' },
  'Approx speculative decoding acceptance rate': { column: 'client_spec_acceptance_rate' },
  // the client's count of cached prompt tokens over its prompt tokens (multi-turn runs)
  'KV Cache Hit Rate (%)': { column: 'prefix_cache_hit_rate', kind: 'percent' },
  // 2025's names of the turns and hit-rate keys (perf_constants.py commit 978a44f4cb19f0c822dc55edf8aaaf46e6be5699)
  'Average input turns per request': { column: 'mean_input_num_turns' },
  'Average approx KV cache hit rate (%)': { column: 'prefix_cache_hit_rate', kind: 'percent' },
  // multi-turn runs (2026): earlier turns in a request's history, and TTFT of first turns (cold prefill) and of later ones
  'Avg Turns/Request': { column: 'mean_input_num_turns' },
  'First-Turn TTFT (ms)': { column: 'mean_first_turn_ttft_ms' },
  'Subsequent-Turn TTFT (ms)': { column: 'mean_subsequent_turn_ttft_ms' },
  // where the per-request database was written (2024): a path, no measurement
  'Result DB path': null,
};

const MULTI_TURN_KEYS = ['First-Turn TTFT (ms)', 'Subsequent-Turn TTFT (ms)'];

/** The duration key of each spelling: two expressions with a literal each (tried on every JSON head; an alternation of quoted keys is tried at every quote). */
const SUMMARY_DURATION = [/"Time taken for tests \(s\)"\s*:/, /"Test Duration \(s\)"\s*:/];
export function hasSummaryDuration(text: string): boolean {
  return SUMMARY_DURATION.some((re) => re.test(text));
}
/** With the duration key, what tells a summary of any version from any other JSON. */
export const SUMMARY_SECOND = /"(?:Number of concurrency|Concurrency|Succeed requests|Success Requests|Total requests|Total Requests)"\s*:/;

/**
 * The first 2024 summary's time per output token is each request's latency over its output tokens
 * (`query_latency / completion_tokens`), TTFT included: an NTPOT, not the TPOT later versions
 * compute ((latency − TTFT) / (tokens − 1)) under the same key.
 */
const TPOT_2024 = 'Average time per output token (s)';
const NTPOT: Column = { column: 'mean_ntpot_ms', scale: 1000 };

/** One run from a `benchmark_summary.json` object. */
export function summaryRun(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord {
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  const builder = new FieldMapBuilder();
  const unknown: string[] = [];
  const first2024 = Object.hasOwn(obj, 'Throughput(average tokens/s)') || Object.hasOwn(obj, 'Average QPS');
  for (const [key, value] of Object.entries(obj)) {
    const spec = first2024 && key === TPOT_2024 ? NTPOT : SUMMARY_KEYS[key];
    if (spec === null) continue;
    if (spec === undefined) {
      // a metric of a later version (`Stream Requests`, `Decoded Tok/Iter`): kept under its own name
      const v = number(value);
      if (v === undefined) continue;
      const column = ownName(key);
      unknown.push(column);
      builder.set(column, v, lineOf(key));
      continue;
    }
    builder.set(spec.column, convert(spec, value), lineOf(key));
  }
  addTotals(builder, lineOf);
  // evalscope writes the first-turn / later-turn TTFT split only for a multi-turn run (`--multi-turn`)
  const turnKey = MULTI_TURN_KEYS.find((k) => Object.hasOwn(obj, k));
  if (turnKey !== undefined) builder.set('multi_turn', true, lineOf(turnKey));
  builder.set('client', CLIENT, at.line);
  reportUnknownMetrics(unknown, sink, source.path, at.line);
  return { kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines };
}

function convert(spec: Column, value: JsonValue | undefined): number | undefined {
  const v = number(value);
  if (v === undefined) return undefined;
  if (spec.kind === 'rate') return v === -1 ? Infinity : v > 0 ? v : undefined;
  if (spec.kind === 'percent') return percentToFraction(v);
  if (spec.kind === 'int') return Number.isInteger(v) ? v : undefined;
  return spec.scale === undefined ? v : scaleExact(v, spec.scale);
}

/**
 * The token totals, held only as the successful requests' mean length (evalscope divides its sums
 * by the successful count, rounded to 4 places) × that count: the nearest integer.
 */
function addTotals(builder: FieldMapBuilder, lineOf: (key: string) => number): void {
  const completed = builder.fields.completed;
  if (typeof completed !== 'number' || completed <= 0) return;
  for (const [total, mean] of [
    ['total_input_tokens', 'mean_input_len'],
    ['total_output_tokens', 'mean_output_len'],
  ] as const) {
    const m = builder.fields[mean];
    if (typeof m === 'number') builder.set(total, Math.round(m * completed), builder.lines[mean] ?? lineOf(mean));
  }
}

/** `Decoded Tok/Iter` → `decoded_tok_iter`, `First-Turn TTFT (ms)` → `first_turn_ttft_ms`, `(%)` → `_pct`. */
export function ownName(key: string): string {
  return key
    .replace(/\(%\)/g, 'pct')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A finite number (evalscope writes NaN for an empty statistic: not a value). */
export function number(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
