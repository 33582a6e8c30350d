import type { TextSource } from '../../src/core/grammar.js';
import { type ConfigRecord, FieldMapBuilder } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { canonicalDataset } from '../../src/normalize/dataset.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { CLIENT, number } from './summary.js';

/**
 * `benchmark_args.json`: `Arguments.to_dict()` (perf/arguments.py), written beside the summary by
 * `summary_result` (perf/utils/db_util.py). Its `parallel`, `number`, `url`, `model` and the keys
 * only evalscope's dataclass has tell it from another tool's arguments.
 */
export const ARGS_REQUIRED = [/"parallel"\s*:/, /"number"\s*:/, /"model"\s*:/];
export const ARGS_OWN = /"(?:log_every_n_query|max_prompt_length|min_prompt_length|query_template|outputs_dir|connect_timeout)"\s*:/;

/** Keys read into their own columns below, or left out: secrets, local paths, logging switches. */
const HANDLED = new Set([
  'model', 'model_id', 'parallel', 'number', 'rate', 'dataset', 'dataset_path', 'max_tokens', 'min_tokens',
  'min_prompt_length', 'max_prompt_length', 'prefix_length', 'api', 'stream', 'tokenizer_path', 'extra_args',
  // credentials and headers (a bearer token) are never read
  'api_key', 'headers', 'wandb_api_key', 'swanlab_api_key',
  // where and how it logged, not what it measured
  'outputs_dir', 'log_every_n_query', 'debug', 'name', 'url', 'port', 'no_test_connection', 'connect_timeout', 'read_timeout',
  'prompt', 'query_template', 'stop', 'stop_token_ids', 'sla_auto_tune', 'sla_params', 'db_commit_interval', 'queue_size_multiplier',
  'in_flight_task_multiplier', 'no_timestamp', 'visualizer', 'enable_progress_tracker',
]);

/** evalscope's dataset plugin names where benchlens has its own (`share_gpt_zh` → `sharegpt`). */
function datasetName(name: string): string {
  return /^share_?gpt/i.test(name) ? 'sharegpt' : name;
}

/** One ConfigRecord (origin `bench-config`) from the arguments of the run(s) of its folder. */
export function argsConfig(obj: JsonObject, at: SourcePos, _source: TextSource): ConfigRecord | null {
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  const b = new FieldMapBuilder();
  b.set('model', text(obj.model), lineOf('model'));
  // one run's load point: a list is the whole sweep's (an args file above the per-parallel folders), no one run's
  b.set('max_concurrency', single(obj.parallel), lineOf('parallel'));
  b.set('num_prompts', single(obj.number), lineOf('number'));
  const rate = number(obj.rate);
  b.set('request_rate', rate === -1 ? Infinity : rate !== undefined && rate > 0 ? rate : undefined, lineOf('rate'));
  const dataset = text(obj.dataset);
  const path = text(obj.dataset_path);
  const canonical = canonicalDataset(dataset === undefined ? null : datasetName(dataset), path ?? null);
  b.set('dataset', canonical ?? undefined, lineOf('dataset'));
  b.set('dataset_path', path, lineOf('dataset_path'));
  b.set('backend', text(obj.api), lineOf('api'));
  b.set('streaming', typeof obj.stream === 'boolean' ? obj.stream : undefined, lineOf('stream'));
  b.set('tokenizer', text(obj.tokenizer_path), lineOf('tokenizer_path'));
  addLengths(b, obj, dataset, lineOf);
  // the sampling parameters and any other scalar argument: flag columns
  for (const [key, value] of Object.entries(obj)) {
    if (HANDLED.has(key) || value === null || typeof value === 'object') continue;
    addFlags(b, { [key]: value as PyValue }, lineOf(key));
  }
  const extra = obj.extra_args;
  if (isJsonObject(extra)) {
    for (const [key, value] of Object.entries(extra)) {
      if (value !== null && typeof value !== 'object') addFlags(b, { [key]: value as PyValue }, lineOf('extra_args'));
    }
  }
  if (b.size === 0) return null;
  // the tool whose runs it describes: linking gives it to those only (link-runs.ts, linkBenchConfig)
  b.set('client', CLIENT, at.line);
  return { kind: 'config', at, origin: 'bench-config', fields: b.fields, lines: b.lines };
}

/**
 * The configured lengths. `max_tokens` is a cap: it is the output length only when `min_tokens`
 * equals it, or `extra_args.ignore_eos` makes every request run to it. The `random` dataset draws
 * each prompt's length between `min_prompt_length` and `max_prompt_length`: one length when they
 * are equal (`prefix_length` more tokens of shared prefix before it).
 */
function addLengths(b: FieldMapBuilder, obj: JsonObject, dataset: string | undefined, lineOf: (key: string) => number): void {
  const max = number(obj.max_tokens);
  const min = number(obj.min_tokens);
  const extra = isJsonObject(obj.extra_args) ? obj.extra_args : {};
  b.set('max_tokens', max, lineOf('max_tokens'));
  b.set('min_tokens', min, lineOf('min_tokens'));
  if (max !== undefined && (min === max || extra.ignore_eos === true)) b.set('output_len', max, lineOf(min === max ? 'min_tokens' : 'extra_args'));
  if (dataset === undefined || !/^random/i.test(dataset)) return;
  const lo = number(obj.min_prompt_length);
  const hi = number(obj.max_prompt_length);
  if (lo !== undefined && lo === hi) b.set('input_len', lo, lineOf('max_prompt_length'));
  else if (lo !== undefined && hi !== undefined && hi > lo) {
    // each prompt's length drawn uniformly between the two, both included
    b.set('input_len_distribution', 'uniform', lineOf('max_prompt_length'));
    b.set('input_len_min', lo, lineOf('min_prompt_length'));
    b.set('input_len_max', hi, lineOf('max_prompt_length'));
  }
  const prefix = number(obj.prefix_length);
  if (prefix !== undefined && prefix > 0) b.set('prefix_len', prefix, lineOf('prefix_length'));
}

/** An int, or a list of one (the single-run form after `__post_init__` made it a list). */
function single(value: JsonValue | undefined): number | undefined {
  const v = Array.isArray(value) && value.length === 1 ? value[0] : value;
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
