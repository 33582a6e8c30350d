import type { FieldMapBuilder } from '../../src/core/records.js';
import { lookupTable } from '../../src/core/cells.js';
import { isJsonObject, type JsonObject, type JsonValue, linesOf } from './tree.js';
import { num, obj, str } from './stats.js';

/**
 * llm-d-benchmark's harness names (`WorkloadGenerator`: `vllm-benchmark`, `guidellm`,
 * `inference-perf`, `inferencemax`, `aiperf`, `nop`, …) → the `client` names benchlens' other
 * grammars give the same tools. Any other name is kept lower-cased.
 */
const CLIENTS: Readonly<Record<string, string>> = lookupTable({
  'vllm-benchmark': 'vllm-bench-serve',
  vllm_benchmark: 'vllm-bench-serve',
  guidellm: 'guidellm',
  'inference-perf': 'inference-perf',
  inference_perf: 'inference-perf',
  inferencemax: 'inferencex-benchmark-serving',
  inference_max: 'inferencex-benchmark-serving',
  aiperf: 'aiperf',
  'genai-perf': 'genai-perf',
});

/** The `client` column for a harness name, and whether it differs from the name (kept as `load_tool`). */
export function clientOf(tool: string): string {
  const key = tool.trim().toLowerCase();
  return CLIENTS[key] ?? key;
}

/**
 * A `SequenceLength` (`{distribution, value, std_dev, min, max}`) → `input_len` / `output_len`.
 * Only a length the load asked for is one: `fixed`, `gaussian`, `uniform`/`random` around or at
 * `value`; `other` (the vLLM converter's ShareGPT runs: the MEASURED mean prompt length) is kept
 * as `<column>_distribution` only. Spread and bounds as `<column>_std_dev`, `_min`, `_max`.
 */
export function addSequenceLength(builder: FieldMapBuilder, value: JsonValue | undefined, column: 'input_len' | 'output_len', line: number): void {
  if (!isJsonObject(value)) return;
  const lines = linesOf(value);
  const at = (key: string): number => lines[key] ?? line;
  const distribution = str(value.distribution)?.toLowerCase();
  if (distribution !== undefined && distribution !== 'fixed') builder.set(`${column}_distribution`, distribution, at('distribution'));
  if (distribution === 'other') return;
  const v = num(value.value);
  builder.set(column, v === undefined ? undefined : Math.round(v), at('value'));
  builder.set(`${column}_std_dev`, num(value.std_dev), at('std_dev'));
  builder.set(`${column}_min`, num(value.min), at('min'));
  builder.set(`${column}_max`, num(value.max), at('max'));
}

/**
 * `scenario.load` of a v0.2 report: the harness (`standardized.tool`) → `client` (its own name as
 * `load_tool` when it differs), `tool_version` → `client_version`, the load point (`rate_qps` →
 * `request_rate`, `concurrency` → `max_concurrency`, `.inf` = no limit: left null), the stage,
 * lengths, shared prefixes and multi-turn settings, the treatment grouping of 0.2.1.
 */
export function addLoad(builder: FieldMapBuilder, load: JsonObject, line: number): void {
  const s = obj(load.standardized);
  const lines = linesOf(s);
  const at = (key: string): number => lines[key] ?? linesOf(load).standardized ?? line;
  const tool = str(s.tool);
  if (tool !== undefined) {
    builder.set('client', clientOf(tool), at('tool'));
    if (clientOf(tool) !== tool) builder.set('load_tool', tool, at('tool'));
  }
  builder.set('client_version', str(s.tool_version), at('tool_version'));
  const rate = num(s.rate_qps);
  builder.set('request_rate', rate, at('rate_qps'));
  const concurrency = num(s.concurrency);
  if (concurrency !== undefined) builder.set('max_concurrency', concurrency, at('concurrency'));
  builder.set('stage_id', num(s.stage), at('stage'));
  const parallelism = num(s.parallelism);
  builder.set('load_parallelism', parallelism, at('parallelism'));
  const source = str(s.source);
  builder.set('load_source', source, at('source'));
  addSequenceLength(builder, s.input_seq_len, 'input_len', at('input_seq_len'));
  addSequenceLength(builder, s.output_seq_len, 'output_len', at('output_seq_len'));
  const prefix = obj(s.prefix);
  if (Object.keys(prefix).length > 0) {
    const pl = linesOf(prefix);
    const len = obj(prefix.prefix_len);
    builder.set('prefix_len', num(len.value), linesOf(len).value ?? pl.prefix_len ?? at('prefix'));
    builder.set('prefix_num_groups', num(prefix.num_groups), pl.num_groups ?? at('prefix'));
    builder.set('prefix_users_per_group', num(prefix.num_users_per_group), pl.num_users_per_group ?? at('prefix'));
    builder.set('prefix_num_prefixes', num(prefix.num_prefixes), pl.num_prefixes ?? at('prefix'));
  }
  const multi = obj(s.multi_turn);
  if (Object.keys(multi).length > 0) {
    const ml = linesOf(multi);
    builder.set('multi_turn', typeof multi.enabled === 'boolean' ? multi.enabled : true, ml.enabled ?? at('multi_turn'));
    const turns = obj(multi.max_turns);
    builder.set('max_turns', num(turns.value), linesOf(turns).value ?? ml.max_turns ?? at('multi_turn'));
  }
  const meta = obj(load.metadata);
  const metaLines = linesOf(meta);
  builder.set('treatment', str(meta.treatment), metaLines.treatment ?? line);
  builder.set('treatment_group', str(meta.treatment_group), metaLines.treatment_group ?? line);
  if (Array.isArray(meta.concurrent_with) && meta.concurrent_with.length > 0) {
    builder.set('concurrent_with', meta.concurrent_with.filter((t) => typeof t === 'string').join(','), metaLines.concurrent_with ?? line);
  }
  // `source: random` (tokens drawn from the vocabulary) is the random dataset, whatever the harness
  if (source === 'random') builder.set('dataset', 'random', at('source'));
}

/**
 * The dataset an inference-perf config names (`data.type`: `random`, `shared_prefix`,
 * `sharegpt`, `synthetic`, …), from `scenario.load.native.config`.
 */
export function addInferencePerfConfig(builder: FieldMapBuilder, config: JsonValue | undefined, line: number): void {
  if (!isJsonObject(config)) return;
  const data = obj(config.data);
  const type = str(data.type);
  builder.set('dataset', type, linesOf(data).type ?? linesOf(config).data ?? line);
}

/**
 * A v0.1 GuideLLM report's load point, which only its `scenario.load.args` (GuideLLM's own
 * arguments) and the benchmark's index (`load.metadata.stage`) tell: `rate_type` `concurrent` →
 * `max_concurrency`, `constant` / `poisson` → `request_rate`, each the `stage`-th of `rate`
 * (one benchmark per rate, in order; a sweep's rates are chosen as it runs: none). A synthetic
 * `data` spec (`prompt_tokens=512,output_tokens=128`) → the random dataset and its lengths.
 */
export function addGuidellmArgs(builder: FieldMapBuilder, args: JsonValue | undefined, stage: number | undefined, line: number): void {
  if (!isJsonObject(args)) return;
  const lines = linesOf(args);
  const type = str(args.rate_type)?.toLowerCase();
  const rates = Array.isArray(args.rate) ? args.rate : args.rate === undefined || args.rate === null ? [] : [args.rate];
  const rate = stage !== undefined && stage >= 0 ? num(rates[stage]) : rates.length === 1 ? num(rates[0]) : undefined;
  if (rate !== undefined && type === 'concurrent') builder.set('max_concurrency', rate, lines.rate ?? line);
  if (rate !== undefined && (type === 'constant' || type === 'poisson')) builder.set('request_rate', rate, lines.rate ?? line);
  builder.set('strategy', type, lines.rate_type ?? line);
  const data = typeof args.data === 'string' ? args.data : undefined;
  const prompt = data === undefined ? undefined : /(?:^|[,{\s])prompt_tokens["']?\s*[=:]\s*(\d+)/.exec(data)?.[1];
  const output = data === undefined ? undefined : /(?:^|[,{\s])output_tokens["']?\s*[=:]\s*(\d+)/.exec(data)?.[1];
  if (prompt !== undefined || output !== undefined) {
    builder.set('dataset', 'random', lines.data ?? line);
    builder.set('input_len', prompt === undefined ? undefined : Number(prompt), lines.data ?? line);
    builder.set('output_len', output === undefined ? undefined : Number(output), lines.data ?? line);
  } else if (data !== undefined) {
    builder.set('dataset', data, lines.data ?? line);
  }
}
