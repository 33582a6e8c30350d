import { lookupTable } from '../../src/core/cells.js';
/**
 * `--report_json` keys (TensorRT-LLM 0.13 → 1.x), per top-level section, mapped to the same
 * canonical columns as the text report (grammars/trtllm-bench/labels.ts). `scale` converts units.
 */
export interface KeySpec {
  readonly column: string;
  readonly scale?: number;
  readonly kind?: 'policy' | 'backend' | 'spec-method';
}

const k = (column: string, extra: Omit<KeySpec, 'column'> = {}): KeySpec => ({ column, ...extra });

/** A table of sections of keys, each a lookup table (keys are a report's, hence a log's). */
function nestedLookupTable<T>(sections: Readonly<Record<string, Readonly<Record<string, T>>>>): Readonly<Record<string, Readonly<Record<string, T>>>> {
  return lookupTable(Object.fromEntries(Object.entries(sections).map(([name, keys]) => [name, lookupTable(keys)])));
}

export const SCALAR_KEYS: Readonly<Record<string, Readonly<Record<string, KeySpec>>>> = nestedLookupTable<KeySpec>({
  engine: {
    model: k('model'),
    model_path: k('model_path'),
    engine_dir: k('engine_dir'),
    revision: k('model_revision'),
    version: k('engine_version'),
    backend: k('backend', { kind: 'backend' }),
    dtype: k('dtype'),
    kv_cache_dtype: k('kv_cache_dtype'),
    quantization: k('quantization'),
    max_input_length: k('max_input_len'),
    max_sequence_length: k('max_model_len'),
  },
  machine: {
    name: k('gpu'),
    'memory.total': k('gpu_memory_gb'),
  },
  world_info: {
    tp_size: k('tp'),
    pp_size: k('pp'),
    ep_size: k('ep'),
    world_size: k('num_gpus'),
    max_batch_size: k('max_num_seqs'),
    max_num_tokens: k('max_num_batched_tokens'),
    scheduling_policy: k('scheduling_policy', { kind: 'policy' }),
    kv_cache_percentage: k('kv_cache_free_gpu_memory_fraction'),
    issue_rate: k('issue_rate'),
  },
  request_info: {
    num_requests: k('num_prompts'),
    avg_num_concurrent_requests: k('mean_concurrent_requests'),
    avg_input_length: k('mean_input_len'),
    avg_output_length: k('mean_output_len'),
  },
  performance: {
    total_latency_ms: k('duration_s', { scale: 0.001 }),
    avg_request_latency_ms: k('mean_e2el_ms'),
    request_throughput_req_s: k('request_throughput'),
    system_output_throughput_tok_s: k('output_throughput'),
    system_total_throughput_tok_s: k('total_token_throughput'),
    output_throughput_per_user_tok_s: k('output_throughput_per_user_with_ctx'),
    output_throughput_per_gpu_tok_s: k('output_throughput_per_gpu'),
  },
  streaming_metrics: {
    token_output_speed_tok_s: k('output_speed_per_user'),
    avg_ttft_ms: k('mean_ttft_ms'),
    avg_tpot_ms: k('mean_tpot_ms'),
  },
  decoding_stats: {
    mode: k('spec_method', { kind: 'spec-method' }),
  },
  dataset: {
    dataset_path: k('dataset_path'),
    num_requests: k('dataset_num_sequences'),
  },
});

/**
 * Percentile objects (`{p50, p90, p95, p99, minimum, maximum, average}`) → the breakdown group
 * of the text report (`[Latency]`, `[TPOT]`, …) or a dataset column stem.
 */
export const PERCENTILE_KEYS: Readonly<Record<string, Readonly<Record<string, { group: string } | { dataset: string }>>>> = nestedLookupTable<{ group: string } | { dataset: string }>({
  performance: { request_latency_percentiles_ms: { group: 'latency' } },
  streaming_metrics: {
    tpot_percentiles: { group: 'tpot' },
    ttft_percentiles: { group: 'ttft' },
    gen_tps_percentiles: { group: 'gtps' },
  },
  decoding_stats: {
    num_draft_tokens_percentiles: { group: 'dt' },
    num_accepted_draft_tokens_percentiles: { group: 'adt' },
    draft_acceptance_rate_percentiles: { group: 'dar' },
    acceptance_length_percentiles: { group: 'al' },
  },
  dataset: {
    isl_stats: { dataset: 'input_len' },
    osl_stats: { dataset: 'output_len' },
    seq_len_stats: { dataset: 'seq_len' },
  },
});

/** Top-level sections that identify a report JSON (at least two must be present). */
export const SECTIONS = ['engine', 'world_info', 'request_info', 'performance'];
