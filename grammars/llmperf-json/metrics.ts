import { lookupTable } from '../../src/core/cells.js';

/**
 * How llmperf's `metrics_summary` names its statistics once `flatten_dict` has joined the keys
 * with `_`: `results_<metric>_quantiles_p25`…`_p99`, `results_<metric>_mean`, `_min`, `_max`,
 * `_stddev`. Anything else under `results_` is a scalar (`results_num_completed_requests`, and
 * `results_num_completed_requests_per_min`, whose `_min` is a minute, not a minimum).
 */
const STAT_KEY = /^results_(.+?)(?:_quantiles_(p\d+(?:\.\d+)?)|(?<!_per)_(mean|median|min|max|stddev|std))$/;

/** A `results_` key split into its metric and canonical statistic name (`median` for p50, `std`). */
export function splitStatKey(key: string): { metric: string; stat: string } | null {
  const m = STAT_KEY.exec(key);
  if (!m?.[1]) return null;
  const raw = m[2] ?? m[3] ?? '';
  const stat = raw === 'p50' ? 'median' : raw === 'stddev' ? 'std' : raw;
  return { metric: m[1], stat };
}

/** Where one per-request metric's statistics land: `{stat}` is replaced by the statistic name. */
export interface DistSpec {
  readonly pattern: string;
  readonly scale: number;
}

/**
 * llmperf's per-request metrics (`src/llmperf/common_metrics.py`) → columns. Latencies are in
 * SECONDS. `inter_token_latency_s` is not vLLM's ITL: it is a request's time to its last chunk
 * (TTFT included) divided by its output tokens, so it gets a column of its own.
 */
export const DISTRIBUTIONS: Readonly<Record<string, DistSpec>> = lookupTable({
  ttft_s: { pattern: '{stat}_ttft_ms', scale: 1000 },
  end_to_end_latency_s: { pattern: '{stat}_e2el_ms', scale: 1000 },
  inter_token_latency_s: { pattern: '{stat}_itl_incl_ttft_ms', scale: 1000 },
  request_output_throughput_token_per_s: { pattern: '{stat}_output_throughput_per_user', scale: 1 },
  number_input_tokens: { pattern: '{stat}_input_len', scale: 1 },
  number_output_tokens: { pattern: '{stat}_output_len', scale: 1 },
});

/** Scalar `results_` keys → columns (`scale` converts the unit); null: read elsewhere. */
export const SCALARS: Readonly<Record<string, { column: string; scale?: number } | null>> = lookupTable({
  num_completed_requests: { column: 'completed' },
  number_errors: { column: 'failed' },
  mean_output_throughput_token_per_s: { column: 'output_throughput' },
  // completed requests per minute of the run → req/s
  num_completed_requests_per_min: { column: 'request_throughput', scale: 1 / 60 },
  num_requests_started: { column: 'num_requests_started' },
  error_rate: { column: 'error_rate' },
  // `str(dict(value_counts()))`: "{}" without errors, read separately
  error_code_frequency: null,
});

/**
 * Top-level keys the benchmark writes itself (token_benchmark_ray.py `metadata`, `LLMPerfResults`):
 * → column, or null when read separately or never. Every other top-level key is a `--metadata`
 * pair (or a fork's addition) and is kept as a flag column.
 */
export const TOP_LEVEL: Readonly<Record<string, string | null>> = lookupTable({
  model: 'model',
  mean_input_tokens: 'input_len',
  mean_output_tokens: 'output_len',
  stddev_input_tokens: 'stddev_input_tokens',
  stddev_output_tokens: 'stddev_output_tokens',
  num_concurrent_requests: 'max_concurrency',
  // forks that write the request budget (`--max-num-completed-requests`)
  max_num_completed_requests: 'num_prompts',
  target_completed_requests: 'num_prompts',
  version: 'results_version',
  name: null,
  timestamp: null,
  additional_sampling_params: null,
});
