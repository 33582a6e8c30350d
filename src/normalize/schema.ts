/**
 * The canonical columns of the runs table (schema.md §1), in output order. Columns not listed
 * here (other flags, unknown labels) follow in alphabetical order.
 */
export const PROVENANCE_COLUMNS = ['run_id', 'source_file', 'source_line', 'source_format', 'label', 'config_sources'] as const;

export const CONFIG_COLUMNS = [
  'engine', 'engine_version', 'client', 'backend', 'model', 'draft_model', 'spec_method', 'num_spec_tokens',
  'spec_num_steps', 'spec_eagle_topk', 'spec_num_draft_tokens', 'tp', 'pp', 'dp', 'ep', 'quantization', 'dtype',
  'kv_cache_dtype', 'max_num_seqs', 'max_model_len', 'max_num_batched_tokens', 'enable_chunked_prefill',
  'enable_prefix_caching', 'gpu', 'num_gpus', 'dataset', 'num_prompts', 'max_concurrency', 'request_rate',
  'burstiness', 'input_len', 'output_len',
] as const;

export const RESULT_COLUMNS = [
  'completed', 'failed', 'duration_s', 'total_input_tokens', 'total_output_tokens', 'request_throughput',
  'request_goodput', 'output_throughput', 'peak_output_throughput', 'total_token_throughput',
  'peak_concurrent_requests',
  'mean_ttft_ms', 'median_ttft_ms', 'std_ttft_ms', 'p99_ttft_ms',
  'mean_tpot_ms', 'median_tpot_ms', 'std_tpot_ms', 'p99_tpot_ms',
  'mean_itl_ms', 'median_itl_ms', 'std_itl_ms', 'p99_itl_ms',
  'mean_e2el_ms', 'median_e2el_ms', 'std_e2el_ms', 'p99_e2el_ms',
  'spec_acceptance_rate', 'spec_acceptance_length', 'spec_draft_tokens', 'spec_accepted_tokens', 'spec_num_drafts',
  'spec_system_efficiency', 'spec_per_position_acceptance',
] as const;

/** What a server's stats lines over a run give its row (server-aggregates.ts); not canonical, listed with the flags. */
export const SERVER_AGGREGATE_COLUMNS = ['server_gen_throughput_mean', 'server_kv_cache_usage_max', 'server_running_max', 'server_waiting_max', 'server_preemptions'] as const;

export const DERIVED_COLUMNS = ['est_mean_e2el_ms', 'output_throughput_per_user', 'output_throughput_per_gpu'] as const;

export const CANONICAL_COLUMNS: readonly string[] = [...PROVENANCE_COLUMNS, ...CONFIG_COLUMNS, ...RESULT_COLUMNS, ...DERIVED_COLUMNS];

const CANONICAL_INDEX = new Map(CANONICAL_COLUMNS.map((c, i) => [c, i]));

/** Orders column names: canonical first (schema order), then the rest alphabetically. */
export function orderColumns(columns: Iterable<string>): string[] {
  return [...new Set(columns)].sort((a, b) => {
    const ia = CANONICAL_INDEX.get(a);
    const ib = CANONICAL_INDEX.get(b);
    if (ia !== undefined && ib !== undefined) return ia - ib;
    if (ia !== undefined) return -1;
    if (ib !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Which way is better for a metric: used by speedups and "best" summaries. */
export type Direction = 'higher' | 'lower';

/**
 * What is better the lower it is, by the column's name: latencies and times (`*_ms`, `duration_s`,
 * vLLM's start-up `*_time_s`), energy (`*_j`) and power (`*_w`), failures and preemptions.
 * Everything else (throughputs, acceptance, `*_per_joule`, …) is better higher.
 */
const LOWER_IS_BETTER = /_ms$|(?:^|_)(?:time|latency|duration)_s$|_j$|_w$|^failed$|(?:^|_)preemptions$/;

/** Direction of a metric column by its name (LOWER_IS_BETTER). */
export function metricDirection(column: string): Direction {
  return LOWER_IS_BETTER.test(column) ? 'lower' : 'higher';
}
