import { lookupTable } from '../../src/core/cells.js';

/**
 * `summary` entries that are a statistics object (`get_summary`: `min`, `max`, `median`, `mean`,
 * `percentile_80/90/95/99` of one per-request field) → the column pattern of each statistic.
 * Every latency is in ms already (result.py multiplies by 1000).
 *
 * llm-load-test's names do not mean what vLLM's do:
 * - its `itl` is (end − first token) / (output tokens − 1), one number per request: vLLM's TPOT;
 * - its `tpot` is response time / output tokens, TTFT included: inference-perf's NTPOT;
 * - `tt_ack` is the time to the first chunk of the stream, empty or not.
 */
export const DISTRIBUTIONS: Readonly<Record<string, string>> = lookupTable({
  ttft: '{stat}_ttft_ms',
  itl: '{stat}_tpot_ms',
  tpot: '{stat}_ntpot_ms',
  tt_ack: '{stat}_tt_ack_ms',
  response_time: '{stat}_e2el_ms',
  input_tokens: '{stat}_input_len',
  output_tokens: '{stat}_output_len',
  output_tokens_before_timeout: '{stat}_output_len_before_timeout',
  // caikit_embedding_plugin's own summary
  input_objects: '{stat}_input_objects',
  input_queries: '{stat}_input_queries',
});

/** `get_summary`'s statistic keys → the schema's `{stat}`; any other key keeps its name. */
export function statName(key: string): string {
  const pct = /^percentile_(\d+(?:\.\d+)?)$/.exec(key);
  if (pct) return `p${pct[1]}`;
  return key === 'stddev' || key === 'std' ? 'std' : key;
}

/** Scalar `summary` entries → columns (`throughput` and its kin are settled in index.ts: their meaning moved). */
export const SCALARS: Readonly<Record<string, string | null>> = lookupTable({
  full_duration: 'duration_s',
  total_requests: 'num_requests',
  total_failures: 'failed',
  req_completed_within_test_duration: 'completed_within_duration',
  throughput_per_object: 'object_throughput',
  throughput_tokens_per_document_per_second: 'throughput_tokens_per_document_per_second',
  total_tokens: 'total_input_tokens',
  // settled in index.ts
  throughput: null,
  throughput_full_duration: null,
  failure_rate: null,
  start_time: null,
});

/** `dataset:` keys of config.yaml kept as `dataset_<key>` (the file itself becomes `dataset` and `dataset_path`). */
export const DATASET_KEYS = ['max_queries', 'min_input_tokens', 'max_input_tokens', 'min_output_tokens', 'max_output_tokens', 'max_sequence_tokens', 'custom_prompt_format'];
