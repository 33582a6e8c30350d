import type { FieldMapBuilder } from '../../src/core/records.js';
import { canonicalDataset } from '../../src/normalize/dataset.js';
import { isMapValue, linesOf, type YamlMap, type YamlValue } from './yaml.js';

/** `server.type` (inference-perf's ModelServerType) → benchlens's engine; `mock` serves no model. */
const ENGINES: Readonly<Record<string, string>> = { vllm: 'vllm', sglang: 'sglang', tgi: 'tgi', trtllm: 'trtllm', 'tensorrt-llm': 'trtllm' };

/** Data generators whose prompt and output lengths come from `input_distribution` / `output_distribution`. */
const DISTRIBUTED = new Set(['random', 'synthetic']);

/** inference-perf's `Distribution` defaults (config/common.py), for the keys a config leaves out. */
const DEFAULT_DISTRIBUTION = { min: 10, max: 1024, mean: 512, std_dev: 200, type: 'normal' } as const;

function str(v: YamlValue | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function num(v: YamlValue | undefined): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(v.trim())) return Number(v);
  return undefined;
}

function bool(v: YamlValue | undefined): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** A section of the config and the line of each of its keys; the section's own line for a key it lacks. */
interface Section {
  readonly map: YamlMap;
  readonly line: (key: string) => number;
}

function section(parent: Section, key: string): Section | null {
  const map = parent.map[key];
  if (!isMapValue(map)) return null;
  const own = parent.line(key);
  const lines = linesOf(map);
  return { map, line: (k) => lines[k] ?? own };
}

/** The configuration columns of an inference-perf config (README.md, Columns). */
export function addConfigFields(b: FieldMapBuilder, config: YamlMap, docLine: number): void {
  const topLines = linesOf(config);
  const root: Section = { map: config, line: (k) => topLines[k] ?? docLine };
  const server = section(root, 'server');
  if (server) {
    const type = str(server.map.type)?.toLowerCase();
    const engine = type === undefined ? undefined : ENGINES[type];
    b.set('engine', engine, server.line('type'));
    b.set('model', str(server.map.model_name), server.line('model_name'));
    b.set('ignore_eos', bool(server.map.ignore_eos), server.line('ignore_eos'));
  }
  const api = section(root, 'api');
  if (api) {
    b.set('endpoint_type', str(api.map.type), api.line('type'));
    b.set('streaming', bool(api.map.streaming), api.line('streaming'));
  } else {
    // the first configs (2025) named the API alone: `api: chat`
    b.set('endpoint_type', str(root.map.api), root.line('api'));
  }
  const data = section(root, 'data');
  if (data) addDataFields(b, data);
  const load = section(root, 'load');
  // the arrival pattern of every stage (constant, poisson, concurrent, trace replay); each stage's own load is its report's
  if (load) b.set('strategy', str(load.map.type), load.line('type'));
  const tokenizer = section(root, 'tokenizer');
  if (tokenizer) b.set('tokenizer', str(tokenizer.map.pretrained_model_name_or_path), tokenizer.line('pretrained_model_name_or_path'));
}

function addDataFields(b: FieldMapBuilder, data: Section): void {
  const type = str(data.map.type);
  const dataset = canonicalDataset(type ?? null, null);
  b.set('dataset', dataset ?? undefined, data.line('type'));
  b.set('dataset_path', str(data.map.path), data.line('path'));
  if (type !== undefined && DISTRIBUTED.has(type.toLowerCase()) && !isMapValue(data.map.trace)) {
    addLength(b, 'input_len', data, 'input_distribution');
    addLength(b, 'output_len', data, 'output_distribution');
  }
  const shared = section(data, 'shared_prefix');
  if (type?.toLowerCase() === 'shared_prefix' && shared) {
    // serialized under the aliases in a report bundle's resolved copy, under the field names in most hand-written configs
    b.set('prefix_num_groups', num(shared.map.num_groups ?? shared.map.num_unique_system_prompts), shared.line(shared.map.num_groups !== undefined ? 'num_groups' : 'num_unique_system_prompts'));
    b.set('prefix_users_per_group', num(shared.map.num_prompts_per_group ?? shared.map.num_users_per_system_prompt), shared.line(shared.map.num_prompts_per_group !== undefined ? 'num_prompts_per_group' : 'num_users_per_system_prompt'));
    addLength(b, 'prefix_len', shared, 'system_prompt_len');
    // a legacy `question_distribution` / `output_distribution` holds the length when given
    addLength(b, 'input_len', shared, isMapValue(shared.map.question_distribution) ? 'question_distribution' : 'question_len');
    addLength(b, 'output_len', shared, isMapValue(shared.map.output_distribution) ? 'output_distribution' : 'output_len');
  }
}

/**
 * One configured length: a number as it is; a distribution (`{min, max, mean, std_dev, type}`,
 * inference-perf's defaults for the keys left out) fixes it when its type is `fixed` (the mean,
 * truncated), its `min` equals its `max`, or its spread is 0. Otherwise `<column>` is its mean
 * (the center the lengths are drawn around; none for `uniform`, which draws between min and max
 * whatever the mean) and `<column>_distribution`, `_std_dev`, `_min`, `_max` say how they spread.
 */
function addLength(b: FieldMapBuilder, column: string, parent: Section, key: string): void {
  const value = parent.map[key];
  const n = num(value);
  if (n !== undefined) {
    b.set(column, n, parent.line(key));
    return;
  }
  const dist = section(parent, key);
  if (!dist) return;
  const m = dist.map;
  const type = (str(m.type) ?? DEFAULT_DISTRIBUTION.type).toLowerCase();
  const min = num(m.min) ?? DEFAULT_DISTRIBUTION.min;
  const max = num(m.max) ?? DEFAULT_DISTRIBUTION.max;
  const mean = num(m.mean) ?? DEFAULT_DISTRIBUTION.mean;
  const variance = num(m.variance);
  const spread = variance !== undefined ? Math.sqrt(variance) : (num(m.std_dev) ?? DEFAULT_DISTRIBUTION.std_dev);
  const meanLine = m.mean !== undefined ? dist.line('mean') : dist.line('type');
  if (type === 'fixed') {
    b.set(column, Math.trunc(mean), meanLine);
    return;
  }
  if (min === max) {
    b.set(column, min, m.min !== undefined ? dist.line('min') : dist.line('max'));
    return;
  }
  if (spread === 0 && type !== 'uniform') {
    b.set(column, Math.min(Math.max(Math.round(mean), min), max), meanLine);
    return;
  }
  if (type !== 'uniform') b.set(column, mean, meanLine);
  b.set(`${column}_distribution`, type, dist.line('type'));
  if (type !== 'uniform') b.set(`${column}_std_dev`, spread, dist.line(variance !== undefined ? 'variance' : 'std_dev'));
  b.set(`${column}_min`, min, dist.line('min'));
  b.set(`${column}_max`, max, dist.line('max'));
}
