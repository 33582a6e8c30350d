import type { FieldMapBuilder } from '../../src/core/records.js';
import { canonicalFlag, isRenamedFlag, toField } from '../../src/normalize/flags.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../_shared/json/index.js';
import { lookupTable } from '../../src/core/cells.js';

/**
 * The invocation's configuration (`config`, the tool's `BenchmarkConfig`), the same for every
 * step of the file: model, workload profile, prompt and decode token options, the sweep's settings
 * and the `--extra-meta` map (`meta`).
 */
export function addInvocationConfig(builder: FieldMapBuilder, config: JsonObject, lines: Readonly<Record<string, number>>, line: number): void {
  const at = (key: string): number => lines[key] ?? line;
  // `--model-name` defaults to `--tokenizer-name`; files before `model_name` have the tokenizer only
  const model = str(config.model_name) ?? str(config.tokenizer);
  builder.set('model', model, config.model_name !== undefined ? at('model_name') : at('tokenizer'));
  const tokenizer = str(config.tokenizer);
  if (tokenizer !== undefined && tokenizer !== model) builder.set('tokenizer', tokenizer, at('tokenizer'));
  builder.set('profile', str(config.profile), at('profile'));
  // `Sweep` until the enum was serialized in kebab-case (`sweep`)
  const kind = str(config.benchmark_kind);
  builder.set('benchmark_kind', kind?.toLowerCase(), at('benchmark_kind'));
  builder.set('warmup_duration_s', num(config.warmup_duration_secs), at('warmup_duration_secs'));
  if (kind?.toLowerCase() === 'sweep') builder.set('num_rates', num(config.num_rates), at('num_rates'));
  // the tool's `--run-id` (a random 7-character id by default): not benchlens' own `run_id`
  builder.set('benchmark_run_id', str(config.run_id), at('run_id'));
  addTokenOptions(builder, config.prompt_options, 'input_len', 'prompt', at('prompt_options'));
  addTokenOptions(builder, config.decode_options, 'output_len', 'decode', at('decode_options'));
}

/** Above this, a `u64` option is the tool's "no bound" (`u64::MAX`), not a length. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * `--prompt-options` / `--decode-options` (`{num_tokens, min_tokens, max_tokens, variance}`): the
 * target length `num_tokens` (each request's length is drawn from a normal distribution around it,
 * kept within the bounds) → `input_len` / `output_len`; the bounds and variance as
 * `prompt_*` / `decode_*` columns. A bound the user did not give is written as 0 (min) or
 * `u64::MAX` (max): left out.
 */
function addTokenOptions(builder: FieldMapBuilder, value: JsonValue | undefined, column: string, prefix: string, line: number): void {
  if (!isJsonObject(value)) return;
  const target = num(value.num_tokens);
  builder.set(column, target, line);
  const min = num(value.min_tokens);
  const max = num(value.max_tokens);
  if (min !== undefined && min > 0) builder.set(`${prefix}_min_tokens`, min, line);
  if (max !== undefined && max < NO_BOUND) builder.set(`${prefix}_max_tokens`, max, line);
  builder.set(`${prefix}_variance`, num(value.variance), line);
}

/** `--extra-meta` keys that name a canonical column otherwise than `canonicalFlag` does. */
const META_COLUMNS: Readonly<Record<string, string>> = lookupTable({
  engine: 'engine',
  version: 'engine_version',
  engine_version: 'engine_version',
  device: 'gpu',
  gpu: 'gpu',
  quant: 'quantization',
  quantization: 'quantization',
});

/** Engine names as users write them → the schema's. */
const ENGINES: Readonly<Record<string, string>> = lookupTable({
  vllm: 'vllm',
  sglang: 'sglang',
  tgi: 'tgi',
  'text-generation-inference': 'tgi',
  trtllm: 'trtllm',
  'trt-llm': 'trtllm',
  'tensorrt-llm': 'trtllm',
  tensorrt_llm: 'trtllm',
});

/** The grammar's provenance columns: a tag of that name is kept as `meta_<key>`. */
const PROTECTED = new Set(['run_id', 'source_file', 'source_line', 'source_format', 'label', 'config_sources', 'client']);

/**
 * `--extra-meta engine=vllm,tp=1` (`config.meta`, all values strings): well-known keys to their
 * canonical columns (`engine`, `engine_version` from `version`, `gpu` from `device`, `tp`, `pp`,
 * `tensor_parallel_size`, `quantization`, …), numbers read as numbers; any other key as a column of
 * its own name. A key whose column the file itself already gave (`model`) is kept as `meta_<key>`.
 */
export function addExtraMeta(builder: FieldMapBuilder, meta: JsonValue | undefined, line: number): void {
  if (!isJsonObject(meta)) return;
  for (const [rawKey, raw] of Object.entries(meta)) {
    if (raw === null || typeof raw === 'object') continue;
    const key = rawKey.trim().replaceAll('-', '_').replaceAll(' ', '_').toLowerCase();
    if (key === '') continue;
    const column = META_COLUMNS[key] ?? (isRenamedFlag(key) || /^(?:tp|pp|dp|ep)$/.test(key) ? canonicalFlag(key) : key);
    let value = toField(column, raw);
    if (column === 'engine' && typeof value === 'string') value = ENGINES[value.trim().toLowerCase()] ?? value.trim().toLowerCase();
    if (column === 'quantization' && typeof value === 'string') value = value.toLowerCase();
    if (value === undefined) continue;
    const target = PROTECTED.has(column) || builder.has(column) ? `meta_${key}` : column;
    builder.set(target, value, line);
  }
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
