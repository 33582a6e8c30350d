import type { FieldMapBuilder } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import type { PyValue } from '../parse/python-repr.js';
import { canonicalSpecMethod } from './spec-method.js';
import { lookupTable } from '../core/cells.js';

/**
 * Server and benchmark flags → canonical columns (schema.md §1). Flags not named here keep their
 * own snake_case name, so a sweep over any flag can still be compared and plotted.
 */
const RENAMES: Readonly<Record<string, string>> = lookupTable({
  model_path: 'model',
  model_id: 'model',
  served_model_name: 'served_model_name',
  tensor_parallel_size: 'tp',
  tp_size: 'tp',
  pipeline_parallel_size: 'pp',
  pp_size: 'pp',
  data_parallel_size: 'dp',
  dp_size: 'dp',
  expert_parallel_size: 'ep',
  ep_size: 'ep',
  dataset_name: 'dataset',
  random_input_len: 'input_len',
  random_output_len: 'output_len',
  sharegpt_output_len: 'output_len',
  speculative_model: 'draft_model',
  speculative_draft_model_path: 'draft_model',
  num_speculative_tokens: 'num_spec_tokens',
  speculative_algorithm: 'spec_method',
  speculative_method: 'spec_method',
  // argparse takes an unambiguous prefix: SGLang's 2024 docs launch `--speculative-algo EAGLE --speculative-draft <path>`
  speculative_algo: 'spec_method',
  speculative_draft: 'draft_model',
  speculative_num_steps: 'spec_num_steps',
  speculative_eagle_topk: 'spec_eagle_topk',
  speculative_num_draft_tokens: 'spec_num_draft_tokens',
  // vLLM's `--attention-config.backend X` / `-ac.backend X` (2026): the backend `--attention-backend` and VLLM_ATTENTION_BACKEND name
  attention_config_backend: 'attention_backend',
  // SGLang DFLASH's block: the tokens it drafts and verifies a step (its alias of the flag above)
  speculative_dflash_block_size: 'spec_num_draft_tokens',
  quantization_method: 'quantization',
  max_seq_len: 'max_model_len',
  context_length: 'max_model_len',
  max_running_requests: 'max_num_seqs',
  chunked_prefill_size: 'chunked_prefill_size',
  // SGLang and TensorRT-LLM command-line spellings (grammars/launch-command)
  speculative_draft_model: 'draft_model',
  speculative_num_speculative_tokens: 'num_spec_tokens',
  max_batch_size: 'max_num_seqs',
  max_num_tokens: 'max_num_batched_tokens',
  num_requests: 'num_prompts',
  concurrency: 'max_concurrency',
  kv_cache_quant_algo: 'kv_cache_dtype',
  // one setting, two engines' (or two CLIs') spellings: SGLang's `--dcp-size` is vLLM's
  // `--decode-context-parallel-size`; SGLang's long aliases; trtllm-bench's name of trtllm-serve's
  dcp_size: 'decode_context_parallel_size',
  attention_context_parallel_size: 'attn_cp_size',
  moe_data_parallel_size: 'moe_dp_size',
  kv_cache_free_gpu_mem_fraction: 'kv_cache_free_gpu_memory_fraction',
});

/** Operational flags that say nothing about the measured configuration. */
const IGNORED = new Set([
  'host', 'port', 'base_url', 'endpoint', 'subparser', 'bench_type', 'dispatch_function', 'func',
  'disable_tqdm', 'profile', 'save_result', 'save_detailed', 'append_result', 'result_dir',
  'result_filename', 'output_file', 'output_details', 'trust_remote_code', 'seed', 'tokenizer',
  'tokenizer_mode', 'metadata', 'percentile_metrics', 'metric_percentiles', 'download_dir',
  'disable_log_requests', 'enable_log_requests', 'disable_log_stats', 'uvicorn_log_level',
  'api_key', 'ssl_keyfile', 'ssl_certfile', 'allowed_origins', 'log_level', 'ready_check_timeout_sec',
  'extra_request_body', 'extra_body', 'header', 'headers', 'lora_modules', 'pretty', 'best_of',
  'use_beam_search', 'logprobs', 'sonnet_input_len', 'sonnet_output_len', 'sonnet_prefix_len', 'hf_subset',
  'hf_split', 'hf_output_len', 'served_model_name', 'label', 'plot_timeline', 'plot_dataset_stats',
  'output_json', 'output_dir',
]);

/**
 * A flag that holds a credential (`--api-key`, vLLM's `--hf-token`, a plugin's `authorization`
 * bearer token or Azure `key`, a `password`): never a column, whatever reads it, since the runs
 * table and the report a user shares would carry the secret. Only text is one: a switch named
 * alike (`--allow-credentials`, a `*_routing_key` on/off) stays.
 */
const SECRET = /^key$|(?:^|_)(?:api_?key|token|password|passwd|secret|authorization|credentials?|bearer)$/;

export function isSecretFlag(column: string, value: unknown): boolean {
  return typeof value === 'string' && SECRET.test(column);
}

/**
 * Whether a key is a flag spelled otherwise than its canonical column (`tensor_parallel_size`,
 * `random-input-len`): how a result file's key is told to be a flag (any other key keeps its name).
 */
export function isRenamedFlag(key: string): boolean {
  const name = flagName(key);
  return Object.hasOwn(RENAMES, name) && RENAMES[name] !== name;
}

function flagName(flag: string): string {
  const name = flag.replace(/^-+/, '').replaceAll('-', '_').replaceAll('.', '_').toLowerCase();
  return ABBREVIATED[name] ?? name;
}

/**
 * Flags as argparse takes them cut to a prefix that names one flag alone (`allow_abbrev`, on by
 * default): a recipe's `--random-input 8000 --random-output 1024` is `--random-input-len`,
 * `--random-output-len`.
 */
const ABBREVIATED: Readonly<Record<string, string>> = lookupTable({
  random_input: 'random_input_len',
  random_output: 'random_output_len',
  random_prefix: 'random_prefix_len',
  sharegpt_output: 'sharegpt_output_len',
});

/** Converts a flag spelling (`--tensor-parallel-size`, `tp`, `-tp`) to its canonical column name. */
export function canonicalFlag(flag: string): string {
  const name = flagName(flag);
  if (name === 'tp') return 'tp';
  if (name === 'pp') return 'pp';
  if (name === 'dp') return 'dp';
  return RENAMES[name] ?? name;
}

/**
 * Adds flags (a parsed argument dump or command line) to a builder under canonical columns.
 * Nested speculative configs (`speculative_config={'method': ..., 'model': ...}`) are unfolded.
 */
export function addFlags(builder: FieldMapBuilder, args: Readonly<Record<string, PyValue>>, line: number, datasetName: string | null = datasetNameOf(args)): void {
  for (const [flag, raw] of Object.entries(args)) {
    let column = canonicalFlag(flag);
    if (IGNORED.has(column) || isSecretFlag(column, raw) || raw === null || raw === undefined) continue;
    // another dataset's length (a Namespace dump holds every default): not this run's, kept under its own name
    if (datasetName !== null && lengthKnobApplies(flagName(flag), datasetName) === false) column = flagName(flag);
    if (column === 'speculative_config') {
      addSpeculativeConfig(builder, raw, line);
      continue;
    }
    // vLLM's `--attention-config '{"backend": "FLASHINFER", …}'`: its backend in the one column every spelling shares
    const backend = column === 'attention_config' ? configBackend(raw) : undefined;
    if (backend !== undefined) builder.set('attention_backend', backend, line);
    const value = toField(column, raw);
    if (value !== undefined) builder.set(column, value, line);
  }
}

const RANDOM_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['image', 'mmmu']);
const RANDOM_INPUT_DATASETS: ReadonlySet<string> = new Set(['image']);
const SHAREGPT_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['sharegpt', 'custom', 'openai', 'longbench_v2', 'agentic-trace', 'autobench']);

/**
 * Whether a length knob a benchmark writes for every dataset (a Namespace dump holds each default)
 * shapes the requests of `dataset` (its `--dataset-name`), or undefined for a key that is no such
 * knob. vLLM's and SGLang's random datasets (`random`, `random-mm`, `random-ids`, …) and `image`
 * take `--random-input-len`, and `mmmu` `--random-output-len` too; `--sharegpt-output-len` is the
 * fixed output length of `sharegpt`, and of SGLang's `custom`, `openai`, `longbench_v2` and 2026
 * `agentic-trace` and `autobench` (grammars/sglang-bench-serving/dataset-knobs.ts, with the sources).
 */
export function lengthKnobApplies(key: string, dataset: string): boolean | undefined {
  if (key === 'random_output_len') return dataset.startsWith('random') || RANDOM_OUTPUT_DATASETS.has(dataset);
  if (key.startsWith('random_')) return dataset.startsWith('random') || RANDOM_INPUT_DATASETS.has(dataset);
  if (key === 'sharegpt_output_len') return SHAREGPT_OUTPUT_DATASETS.has(dataset);
  return undefined;
}

/** The `--dataset-name` among a command's or dump's arguments, or null. */
export function datasetNameOf(args: Readonly<Record<string, PyValue>>): string | null {
  for (const [flag, raw] of Object.entries(args)) if (typeof raw === 'string' && flagName(flag) === 'dataset_name') return raw.toLowerCase();
  return null;
}

/** The `backend` of an attention config given as a dict or as its JSON text; undefined when it names none. */
function configBackend(raw: PyValue): string | undefined {
  let config: PyValue = raw;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as PyValue;
    } catch {
      return undefined;
    }
  }
  const backend = config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, PyValue>).backend : undefined;
  return typeof backend === 'string' && backend !== '' ? backend : undefined;
}

function addSpeculativeConfig(builder: FieldMapBuilder, raw: PyValue, line: number): void {
  let config = raw;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as PyValue;
    } catch {
      return;
    }
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return;
  // TensorRT-LLM's spellings: `decoding_type: MTP`, `max_draft_len` or (MTP) `num_nextn_predict_layers`, `speculative_model_dir`
  const method = config.method ?? config.decoding_type;
  const model = config.model ?? config.speculative_model_dir ?? config.speculative_model;
  const k = config.num_speculative_tokens ?? config.num_spec_tokens ?? config.max_draft_len ?? config.num_nextn_predict_layers;
  if (typeof method === 'string') builder.set('spec_method', canonicalSpecMethod(method), line);
  if (typeof model === 'string') builder.set('draft_model', model, line);
  if (typeof k === 'number') builder.set('num_spec_tokens', k, line);
  if (typeof method !== 'string' && typeof model === 'string') {
    builder.set('spec_method', /ngram|\[ngram\]/i.test(model) ? 'ngram' : 'draft_model', line);
  }
  for (const [key, value] of Object.entries(config)) {
    if (SPEC_CONFIG_READ.has(key)) continue;
    const v = toField(key, value);
    if (v !== undefined) builder.set(`speculative_${key}`, v, line);
  }
}

/** Speculative-config keys read into the canonical columns above, not kept as `speculative_*`. */
const SPEC_CONFIG_READ: ReadonlySet<string> = new Set(['method', 'decoding_type', 'model', 'speculative_model_dir', 'speculative_model', 'num_speculative_tokens', 'num_spec_tokens', 'max_draft_len', 'num_nextn_predict_layers']);

/** Turns a parsed flag value into a column value (numbers from numeric strings, lists as text). */
export function toField(column: string, raw: PyValue): FieldValue | undefined {
  if (raw === null) return undefined;
  if (column === 'spec_method' && typeof raw === 'string') return canonicalSpecMethod(raw);
  if (typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    if (raw === 'inf') return Infinity;
    if (/^[+-]?\d+(?:\.\d+)?$/.test(raw)) return Number(raw);
    if (raw === 'True' || raw === 'true') return true;
    if (raw === 'False' || raw === 'false') return false;
    return raw;
  }
  return JSON.stringify(raw);
}
