import { lookupTable } from '../../src/core/cells.js';
/**
 * `bench_serving --output-file` keys → canonical columns (formats.md §5.1). `null` = read past
 * (per-request arrays and bookkeeping). Latency keys are handled by pattern in `latencyKey()`.
 */
export const SGLANG_JSON_KEYS: Readonly<Record<string, string | null>> = lookupTable({
  backend: 'backend',
  dataset_name: 'dataset',
  dataset_path: 'dataset_path',
  request_rate: 'request_rate',
  max_concurrency: 'max_concurrency',
  num_prompts: 'num_prompts',
  sharegpt_output_len: 'output_len',
  random_input_len: 'input_len',
  random_output_len: 'output_len',
  random_range_ratio: 'random_range_ratio',
  duration: 'duration_s',
  completed: 'completed',
  total_input_tokens: 'total_input_tokens',
  total_input_text_tokens: 'total_input_text_tokens',
  total_input_vision_tokens: 'total_input_vision_tokens',
  total_output_tokens: 'total_output_tokens',
  total_output_tokens_retokenized: 'total_output_tokens_retokenized',
  // the click/runner refactor (benchmark/metrics.py) dumps `metrics.__dict__`: the dataclass's names
  total_input: 'total_input_tokens',
  total_output: 'total_output_tokens',
  total_output_retokenized: 'total_output_tokens_retokenized',
  request_throughput: 'request_throughput',
  input_throughput: 'input_throughput',
  output_throughput: 'output_throughput',
  output_throughput_retokenized: 'output_throughput_retokenized',
  total_throughput: 'total_token_throughput',
  total_throughput_retokenized: 'total_token_throughput_retokenized',
  concurrency: 'concurrency',
  accept_length: 'spec_acceptance_length',
  max_output_tokens_per_s: 'peak_output_throughput',
  max_concurrent_requests: 'peak_concurrent_requests',
  tag: null,
  server_info: null,
  // read by cache-report.ts
  cache_report: null,
  input_lens: null,
  output_lens: null,
  ttfts: null,
  itls: null,
  generated_texts: null,
  errors: null,
  cached_tokens: null,
  cached_tokens_details: null,
  // the refactor nests the `--output-details` arrays under one key
  details: null,
});

/**
 * `--output-details` per-request arrays (read past above): a large file is read without them.
 * `--cache-report` adds `cached_tokens` and `cached_tokens_details` (2026); the click/runner
 * refactor nests the arrays under `details`.
 */
export const PER_REQUEST_KEYS: readonly string[] = ['input_lens', 'output_lens', 'ttfts', 'itls', 'generated_texts', 'errors', 'cached_tokens', 'cached_tokens_details', 'details'];

/** `p99_e2e_latency_ms` → `p99_e2el_ms`; other `*_ms` statistics keep their name. */
export function latencyKey(key: string): string | null {
  const m = /^(mean|median|std|max|min|p\d+(?:\.\d+)?)_(e2e_latency|ttft|tpot|itl)_ms$/.exec(key);
  if (!m?.[1] || !m[2]) return null;
  return `${m[1]}_${m[2] === 'e2e_latency' ? 'e2el' : m[2]}_ms`;
}

/** server_info keys worth a column (the dict holds hundreds; most are operational). */
export const SERVER_INFO_KEYS: ReadonlySet<string> = new Set([
  'model_path', 'served_model_name', 'tp_size', 'pp_size', 'dp_size', 'ep_size', 'quantization', 'dtype', 'kv_cache_dtype',
  'attention_backend', 'max_running_requests', 'context_length', 'chunked_prefill_size', 'max_prefill_tokens',
  'schedule_policy', 'mem_fraction_static', 'cuda_graph_max_bs', 'enable_dp_attention', 'disable_radix_cache',
  'enable_torch_compile', 'speculative_algorithm', 'speculative_draft_model_path', 'speculative_num_steps',
  'speculative_eagle_topk', 'speculative_num_draft_tokens',
]);
