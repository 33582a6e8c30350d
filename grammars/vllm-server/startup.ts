/**
 * vLLM startup lines → configuration facts (formats.md §4.2): the version banner, the
 * `non-default args` dict, the 2024 `args: Namespace(...)` dump, the engine-config line, capacity
 * lines and the ready lines.
 */
import type { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import { parseKeywordArgs, parsePyValue, type PyValue } from '../../src/parse/python-repr.js';
import { setCell } from '../../src/core/cells.js';

/**
 * `resolved`: a value the server settled on after it printed another (it replaces that one);
 * `art`: a row of the 2026 logo that holds no value (recognized, no fact, starts no server).
 */
export type StartupFact = 'banner' | 'config' | 'resolved' | 'ready' | 'art' | null;

const BANNER = /vLLM API server version (\S+)/;
/**
 * 2026 (`log_version_and_model`, vllm/entrypoints/utils.py): the banner names the model it serves
 * too. One line, `vLLM server version 0.23.1, serving model org/m`, when the logo is turned off
 * (`VLLM_DISABLE_LOG_LOGO`) or vLLM's log formatter is not configured; else a block-letter logo
 * logged as one message: the prefixed log line is empty and the logo's four rows follow with no
 * level or stamp (each behind the process prefix), the version right of the second row (`… █
 * version 0.23.1`) and the model right of the third (`… █  model   org/m`).
 */
const BANNER_2026 = /^vLLM server version (\S+), serving model (\S+)/;
const LOGO_VERSION = /█ +version +(\S+)\s*$/;
const LOGO_MODEL = /█ +model +(\S+)\s*$/;
/** A logo row of glyphs only (its first and last). */
const LOGO_ART = /^[ █▄▀]+$/;
/** The logo's colour codes (`VLLM_LOGGING_COLOR`), when ingest left them (an ESC lost on the way). */
const COLOUR_CODE = /\x1b?\[[\d;]*m/g;
const NON_DEFAULT = /^non-default args: (\{.*\})\s*$/;
const NAMESPACE = /^args: (Namespace\(.*\))\s*$/;
/**
 * `Initializing an LLM engine (v0.6.6) with config: …` (V0, 2023 → 2025), `Initializing a V0 LLM
 * engine (v0.8.5) with config: …` (V0 once V1 existed, 0.7 – 0.9) and `Initializing a V1 LLM engine …`.
 */
const ENGINE_CONFIG = /^Initializing an? (?:V[01] )?LLM engine (?:\(v([^)]+)\) )?with config: (.*)$/;
const KV_TOKENS = /^(?:Engine \d+: )?GPU KV cache size: ([\d,]+) tokens/;
/**
 * Its own line, or (2026, `update_kv_cache_capacity`) after the KV cache size on the same one:
 * `GPU KV cache size: 123,456 tokens, Maximum concurrency for 4,096 tokens per request: 30.14x`.
 */
const CONCURRENCY = /(?:^(?:Engine \d+: )?|, )Maximum concurrency for ([\d,]+) tokens per request: ([\d.]+)x/;
/**
 * V0's KV cache blocks: `# GPU blocks: N, # CPU blocks: M`, later `# %s blocks` with the platform's
 * name (`# CUDA blocks`, `# cuda blocks`, `# cpu blocks` on the CPU backend, `# HPU blocks`, …).
 * The first count is always vLLM's `num_gpu_blocks`, the KV cache of the device the model runs on;
 * `# CPU blocks` is the swap space (`num_cpu_blocks`), whatever the device.
 */
const BLOCKS = /^# [A-Za-z]+ blocks: (\d+), # CPU blocks: (\d+)/;
const GPU_BLOCKS = /num_gpu_blocks is: (\d+)/;
const KV_MEMORY = /^Available KV cache memory: ([\d.]+) GiB/;
const MAX_LEN = /^Using max model len (\d+)/;
const CHUNKED = /^Chunked prefill is enabled with max_num_batched_tokens=(\d+)/;
/**
 * `--max-model-len -1` (2026): the engine fits the context length to the KV cache memory once it
 * is known (vllm/v1/core/kv_cache_utils.py `_auto_fit_max_model_len`), after the argument dump
 * (`'max_model_len': -1`) and the engine-config line (the model's own length) were printed:
 * `Auto-fit max_model_len: reduced from 40960 to 18432 to fit in available GPU memory (2.81 GiB
 * available for KV cache)` or `Auto-fit max_model_len: full model context length 8192 fits in
 * available GPU memory`. Its length is the one the server ran with: it replaces the engine-config
 * line's (a `resolved` fact); the dump's -1 is no length and is not kept.
 */
const AUTO_FIT = /^Auto-fit max_model_len: (?:reduced from \d+ to (\d+) |full model context length (\d+) fits)/;
/**
 * One rule for readiness: the server says it serves HTTP. That is the `Starting vLLM API server`
 * line, the route listing that follows it (`Available routes are:`, `Route: /…, Methods: …`,
 * 2024 →; a route without methods, a websocket or a mounted app, `Route: /…, Endpoint: <name>`,
 * 2026), uvicorn's `Uvicorn running on` and `Application startup complete`.
 */
const READY = /Application startup complete|^Starting vLLM (?:API )?server|Uvicorn running on |^Available routes are:|^Route: \/\S*, (?:Methods|Endpoint): /;

/** Engine-config keys that describe the measured configuration (the line holds ~40 keys). */
const ENGINE_KEYS: Readonly<Record<string, string>> = {
  model: 'model',
  speculative_config: 'speculative_config',
  dtype: 'dtype',
  max_seq_len: 'max_seq_len',
  tensor_parallel_size: 'tensor_parallel_size',
  pipeline_parallel_size: 'pipeline_parallel_size',
  data_parallel_size: 'data_parallel_size',
  quantization: 'quantization',
  kv_cache_dtype: 'kv_cache_dtype',
  enable_prefix_caching: 'enable_prefix_caching',
  chunked_prefill_enabled: 'enable_chunked_prefill',
  enforce_eager: 'enforce_eager',
  num_scheduler_steps: 'num_scheduler_steps',
};

/** Non-default-args keys that repeat another key. */
const SKIPPED_ARGS = new Set(['model_tag']);

/** Adds what a startup message says to the server's builder; tells which kind of fact it was. */
export function readStartupLine(message: string, builder: FieldMapBuilder, line: number): StartupFact {
  let m = BANNER.exec(message);
  if (m) {
    builder.set('engine_version', m[1], line);
    return 'banner';
  }
  if ((m = BANNER_2026.exec(message))) {
    builder.set('engine_version', m[1], line);
    builder.set('model', m[2], line);
    return 'banner';
  }
  // every logo row holds one of these two glyphs (the last row only the upper half block)
  if (message.includes('█') || message.includes('▀')) {
    const row = message.replace(COLOUR_CODE, '');
    if ((m = LOGO_VERSION.exec(row))) {
      builder.set('engine_version', m[1], line);
      return 'banner';
    }
    if ((m = LOGO_MODEL.exec(row))) {
      builder.set('model', m[1], line);
      return 'config';
    }
    if (LOGO_ART.test(row.trim())) return 'art';
  }
  if ((m = NON_DEFAULT.exec(message))) return addArgs(builder, parsePyValue(m[1] ?? ''), line);
  if ((m = NAMESPACE.exec(message))) return addArgs(builder, parsePyValue(m[1] ?? ''), line);
  if ((m = ENGINE_CONFIG.exec(message))) {
    if (m[1] !== undefined) builder.set('engine_version', m[1], line);
    addEngineConfig(builder, parseKeywordArgs(m[2] ?? ''), line);
    return 'config';
  }
  if ((m = KV_TOKENS.exec(message))) {
    set(builder, { kv_cache_tokens: int(m[1]) }, line);
    // 2026: the concurrency on the same line
    m = CONCURRENCY.exec(message);
    return m ? set(builder, { kv_cache_max_concurrency: Number(m[2]), kv_cache_concurrency_tokens: int(m[1]) }, line) : 'config';
  }
  if ((m = CONCURRENCY.exec(message))) return set(builder, { kv_cache_max_concurrency: Number(m[2]), kv_cache_concurrency_tokens: int(m[1]) }, line);
  if ((m = BLOCKS.exec(message))) return set(builder, { num_gpu_blocks: int(m[1]), num_cpu_blocks: int(m[2]) }, line);
  if ((m = GPU_BLOCKS.exec(message))) return set(builder, { num_gpu_blocks: int(m[1]) }, line);
  if ((m = KV_MEMORY.exec(message))) return set(builder, { kv_cache_memory_gib: Number(m[1]) }, line);
  if ((m = MAX_LEN.exec(message))) return set(builder, { max_model_len: int(m[1]) }, line);
  if ((m = AUTO_FIT.exec(message))) {
    set(builder, { max_model_len: int(m[1] ?? m[2]) }, line);
    return 'resolved';
  }
  if ((m = CHUNKED.exec(message))) return set(builder, { enable_chunked_prefill: true, max_num_batched_tokens: int(m[1]) }, line);
  if (READY.test(message)) return 'ready';
  return null;
}

function addArgs(builder: FieldMapBuilder, args: PyValue, line: number): StartupFact {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return null;
  const kept: Record<string, PyValue> = {};
  for (const [k, v] of Object.entries(args)) {
    if (SKIPPED_ARGS.has(k)) continue;
    // `--max-model-len -1`: fitted to memory later (the auto-fit line)
    if (k === 'max_model_len' && v === -1) continue;
    // 2024: `speculative_model='[ngram]'` names a method, not a draft model
    if (k === 'speculative_model' && typeof v === 'string' && /^\[ngram\]$/i.test(v)) kept.speculative_method = 'ngram';
    else kept[k] = normalizeSpec(k, v);
  }
  addFlags(builder, kept, line);
  return 'config';
}

function addEngineConfig(builder: FieldMapBuilder, config: Record<string, PyValue>, line: number): void {
  const kept: Record<string, PyValue> = {};
  for (const [key, name] of Object.entries(ENGINE_KEYS)) {
    const v = config[key];
    if (v === undefined) continue;
    setCell(kept, name, key === 'dtype' && typeof v === 'string' ? v.replace(/^torch\./, '') : normalizeSpec(key, v));
  }
  addFlags(builder, kept, line);
}

/** V0 prints `SpeculativeConfig(draft_model='…', num_spec_tokens=5)`: `draft_model` means `model`. */
function normalizeSpec(key: string, value: PyValue): PyValue {
  if (key !== 'speculative_config' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (value.model === undefined && typeof value.draft_model === 'string') {
    const { draft_model: model, ...rest } = value;
    return { ...rest, model: model ?? null };
  }
  return value;
}

function set(builder: FieldMapBuilder, values: Record<string, number | boolean>, line: number): StartupFact {
  for (const [k, v] of Object.entries(values)) if (!Number.isNaN(v)) builder.set(k, v, line);
  return 'config';
}

function int(text: string | undefined): number {
  return Number((text ?? '').replaceAll(',', ''));
}
