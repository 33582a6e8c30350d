/**
 * The summary values of SGLang's `benchmark/hicache/bench_multiturn.py`, as it keeps them in
 * `performance_data["summary"]` (the keys of its `--log-file` JSONL) and as it prints them under
 * `Performance metrics summary:` (the labels). One table for both readers, so a printed run and its
 * logged copy give the same columns. Times are seconds in both (`time.perf_counter()` differences):
 * `scale` 1000 makes them ms.
 */
export interface SummaryMetric {
  /** Key in `performance_data["summary"]` (and in a round's object where the same). */
  readonly key: string;
  /** Printed label, before its `: `. */
  readonly label: string;
  readonly column: string;
  readonly scale?: number;
}

const MS = 1000;

export const SUMMARY_METRICS: readonly SummaryMetric[] = [
  { key: 'average_prompt_len', label: 'Average Prompt Length', column: 'mean_input_len' },
  { key: 'average_output_len', label: 'Average Output Length', column: 'mean_output_len' },
  { key: 'p90_prompt_len', label: 'P90 Prompt Length', column: 'p90_input_len' },
  { key: 'p99_prompt_len', label: 'P99 Prompt Length', column: 'p99_input_len' },
  { key: 'p90_output_len', label: 'P90 Output Length', column: 'p90_output_len' },
  { key: 'p99_output_len', label: 'P99 Output Length', column: 'p99_output_len' },
  { key: 'average_ttft', label: 'Average TTFT', column: 'mean_ttft_ms', scale: MS },
  { key: 'p90_ttft', label: 'P90 TTFT', column: 'p90_ttft_ms', scale: MS },
  { key: 'p99_ttft', label: 'P99 TTFT', column: 'p99_ttft_ms', scale: MS },
  { key: 'median_ttft', label: 'Median TTFT', column: 'median_ttft_ms', scale: MS },
  { key: 'max_ttft', label: 'Max TTFT', column: 'max_ttft_ms', scale: MS },
  // the gaps between a stream's chunks after the first, as vLLM's ITL (fork with ITL, 2026)
  { key: 'average_itl', label: 'Average ITL', column: 'mean_itl_ms', scale: MS },
  { key: 'p90_itl', label: 'P90 ITL', column: 'p90_itl_ms', scale: MS },
  { key: 'p99_itl', label: 'P99 ITL', column: 'p99_itl_ms', scale: MS },
  { key: 'median_itl', label: 'Median ITL', column: 'median_itl_ms', scale: MS },
  { key: 'max_itl', label: 'Max ITL', column: 'max_itl_ms', scale: MS },
  // a request's time from sending to its last chunk
  { key: 'average_latency', label: 'Average latency', column: 'mean_e2el_ms', scale: MS },
  { key: 'p90_latency', label: 'P90 latency', column: 'p90_e2el_ms', scale: MS },
  { key: 'p99_latency', label: 'P99 latency', column: 'p99_e2el_ms', scale: MS },
  { key: 'median_latency', label: 'Median latency', column: 'median_e2el_ms', scale: MS },
  { key: 'max_latency', label: 'Max latency', column: 'max_e2el_ms', scale: MS },
  { key: 'input_token_throughput', label: 'Input token throughput', column: 'input_throughput' },
  { key: 'output_token_throughput', label: 'Output token throughput', column: 'output_throughput' },
  // a fork's (uncached input + output) tokens per second: not vLLM's total_token_throughput
  { key: 'total_token_throughput', label: 'Total token throughput (miss+out)', column: 'uncached_total_token_throughput' },
  { key: 'total_hit_tokens', label: 'Total Hit Tokens', column: 'total_hit_tokens' },
  { key: 'total_miss_tokens', label: 'Total Miss Tokens', column: 'total_miss_tokens' },
  // every request sent (pbar.total) over the time until the last one finished
  { key: 'throughput', label: 'Request Throughput', column: 'request_throughput' },
  { key: 'throughput', label: 'Throughput', column: 'request_throughput' },
  // cached prompt tokens over prompt tokens (the server's `cached_tokens` of each response): a fraction
  { key: 'cache_hit_rate', label: 'Cache Hit Rate', column: 'prefix_cache_hit_rate' },
];

export const BY_LABEL: ReadonlyMap<string, SummaryMetric> = new Map(SUMMARY_METRICS.map((m) => [m.label, m]));
export const BY_KEY: ReadonlyMap<string, SummaryMetric> = new Map(SUMMARY_METRICS.map((m) => [m.key, m]));

/** Columns every summary that printed in full has: the request throughput is the last line of every layout but those with a cache hit rate. */
export const LAST_OF_OLD_LAYOUT = 'request_throughput';
export const LAST_OF_NEW_LAYOUT = 'prefix_cache_hit_rate';

/** `Average Output Length` → `average_output_length`: a label no table names, kept under its own name. */
export function snakeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
