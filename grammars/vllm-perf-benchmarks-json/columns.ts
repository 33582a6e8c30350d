import { lookupTable } from '../../src/core/cells.js';

/** Which benchmark a row of the summary is: the script's three tables. */
export type RowKind = 'serving' | 'latency' | 'throughput';

/**
 * A column of the summary (its header, lower-cased, spaces collapsed) → the canonical column;
 * `scale` converts the unit (s → ms); `kinds`: the tables whose rows the header is read in (a
 * header written by two tables means the same in both unless said here).
 */
export interface ColumnSpec {
  readonly column: string;
  readonly scale?: number;
  readonly kinds?: readonly RowKind[];
}

/**
 * Every header the vLLM scripts' column maps write (README.md, "Verified against"): the serving
 * table's, the latency table's, the throughput table's. `Test name` (the label) and `GPU` are
 * read apart. `# of req.` is the serving result's `completed` (requests that succeeded) and the
 * throughput result's `num_requests` (an offline run completes every request): `completed` both.
 */
export const COLUMNS: Readonly<Record<string, ColumnSpec>> = lookupTable({
  // serving (`vllm bench serve` / benchmark_serving.py `--save-result` keys)
  '# of req.': { column: 'completed' },
  'tput (req/s)': { column: 'request_throughput' },
  'output tput (tok/s)': { column: 'output_throughput' },
  'input tput (tok/s)': { column: 'input_throughput' },
  // `Total Token Tput` upstream, `Total Tput` in copies of the script
  'total token tput (tok/s)': { column: 'total_token_throughput' },
  'total tput (tok/s)': { column: 'total_token_throughput' },
  'total input tokens': { column: 'total_input_tokens' },
  'total output tokens': { column: 'total_output_tokens' },
  // upstream names the TPOT median and P99 columns `Median` and `P99` alone (they follow `Mean TPOT (ms)`)
  median: { column: 'median_tpot_ms', kinds: ['serving'] },
  p99: { column: 'p99_tpot_ms', kinds: ['serving'] },
  // 2025 →: the configuration the script parsed from the server and client commands
  model: { column: 'model' },
  'dataset name': { column: 'dataset' },
  'input len': { column: 'input_len' },
  'output len': { column: 'output_len' },
  'tp size': { column: 'tp' },
  'pp size': { column: 'pp' },
  dtype: { column: 'dtype' },
  qps: { column: 'request_rate' },
  '# of max concurrency.': { column: 'max_concurrency' },
  // latency (`vllm bench latency --output-json`: seconds, the script multiplied them by 1000)
  'mean latency (ms)': { column: 'mean_batch_latency_ms' },
  'median latency (ms)': { column: 'p50_batch_latency_ms' },
  'p99 latency (ms)': { column: 'p99_batch_latency_ms' },
  // the first scripts' latency table, in seconds
  'average latency (s)': { column: 'mean_batch_latency_ms', scale: 1000 },
  // throughput (`vllm bench throughput --output-json`)
  'total # of tokens': { column: 'total_tokens' },
  'elapsed time (s)': { column: 'duration_s' },
  'tput (tok/s)': { column: 'total_token_throughput' },
});

/** `Mean TTFT (ms)`, `Median TPOT (ms)`, `P99 ITL (ms)`, `STD TTFT (ms)`, … → `mean_ttft_ms`, … */
const LATENCY_STAT = /^(mean|median|std|p\d+(?:\.\d+)?) (ttft|tpot|itl|e2el) \(ms\)$/;
/** The first scripts' latency percentiles: `P10 (s)` … `P90 (s)`. */
const LATENCY_PERCENTILE_S = /^p(\d+) \(s\)$/;

/** A header as looked up: lower case, runs of white space as one space. */
export function headerKey(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The spec of a header, or null for a header of no known column. */
export function columnOf(key: string): ColumnSpec | null {
  if (Object.hasOwn(COLUMNS, key)) return COLUMNS[key] ?? null;
  const stat = LATENCY_STAT.exec(key);
  if (stat) return { column: `${stat[1]}_${stat[2]}_ms`, kinds: ['serving'] };
  const percentile = LATENCY_PERCENTILE_S.exec(key);
  if (percentile) return { column: `p${percentile[1]}_batch_latency_ms`, scale: 1000, kinds: ['latency'] };
  return null;
}

/** Headers only the latency table writes, only the serving table, only the throughput table. */
const LATENCY_HEADERS = /^(?:(?:mean|median|p\d+) latency \(ms\)|average latency \(s\)|p\d+ \(s\))$/;
const SERVING_HEADERS = /^(?:(?:mean|median|std|p\d+(?:\.\d+)?) (?:ttft|tpot|itl|e2el) \(ms\)|(?:output|input|total token|total) tput \(tok\/s\)|total (?:input|output) tokens|qps|# of max concurrency\.)$/;
const THROUGHPUT_HEADERS = /^(?:tput \(tok\/s\)|elapsed time \(s\)|total # of tokens)$/;

/**
 * Which table a row is from: by the headers it has (each table has its own), else by its test
 * name as the script sorted the result files (`serving` anywhere in the path first, then
 * `latency`, then `throughput`); null when neither tells.
 */
export function rowKind(keys: readonly string[], testName: string | null): RowKind | null {
  if (keys.some((k) => LATENCY_HEADERS.test(k))) return 'latency';
  if (keys.some((k) => SERVING_HEADERS.test(k))) return 'serving';
  if (keys.some((k) => THROUGHPUT_HEADERS.test(k))) return 'throughput';
  const name = testName?.toLowerCase() ?? '';
  if (name.includes('serving')) return 'serving';
  if (name.includes('latency')) return 'latency';
  if (name.includes('throughput')) return 'throughput';
  return null;
}
