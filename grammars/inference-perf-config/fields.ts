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
  const text = str(value);
  if (text !== undefined) {
    addExpressionLength(b, column, text, parent.line(key));
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

/** A call of the expression grammar: a name and its arguments (each a number or a call), or a number. */
type Expr = number | { readonly name: string; readonly args: readonly Expr[] };

const MAX_EXPRESSION = 200;

/**
 * A length written as an expression string (inference-perf 2026: `"Normal(512, 200)"`, a SymPy
 * `sympy.stats` constructor, possibly clamped: `"Min(Max(Normal(512, 200), 10), 1024)"`). Read
 * when it is one of these shapes: `Normal(mean, std)` → `<column>` (its mean), `_distribution`
 * `normal`, `_std_dev`; `Uniform(low, high)` → `_distribution` `uniform`, `_min`, `_max`; `Min(…, hi)`
 * / `Max(…, lo)` around either → `_max` / `_min`. Any other expression (other distributions, sums,
 * functions of several draws) is not read: no length is guessed.
 */
function addExpressionLength(b: FieldMapBuilder, column: string, text: string, line: number): void {
  if (text.length > MAX_EXPRESSION) return;
  const expr = parseExpr(text.replace(/\s+/g, ''));
  if (expr === null) return;
  let inner: Expr = expr;
  let low: number | undefined;
  let high: number | undefined;
  // peel the clamps, outermost first: `Min(x, hi)` caps, `Max(x, lo)` floors
  for (let depth = 0; depth < 4 && typeof inner !== 'number'; depth++) {
    const bound = inner.args.length === 2 ? inner.args[1] : undefined;
    if ((inner.name !== 'Min' && inner.name !== 'Max') || typeof bound !== 'number' || inner.args[0] === undefined) break;
    if (inner.name === 'Min') high = high === undefined ? bound : Math.min(high, bound);
    else low = low === undefined ? bound : Math.max(low, bound);
    inner = inner.args[0];
  }
  if (typeof inner === 'number') return;
  const [a, c] = inner.args;
  if (inner.args.length !== 2 || typeof a !== 'number' || typeof c !== 'number') return;
  if (inner.name === 'Normal') {
    b.set(column, a, line);
    b.set(`${column}_distribution`, 'normal', line);
    b.set(`${column}_std_dev`, c, line);
  } else if (inner.name === 'Uniform') {
    b.set(`${column}_distribution`, 'uniform', line);
    low = low === undefined ? a : Math.max(low, a);
    high = high === undefined ? c : Math.min(high, c);
  } else {
    return;
  }
  b.set(`${column}_min`, low, line);
  b.set(`${column}_max`, high, line);
}

/** `Name(arg, …)` or a number (no other operators), whitespace removed; null for anything else. */
function parseExpr(text: string): Expr | null {
  let pos = 0;
  const value = (depth: number): Expr | null => {
    if (depth > 8) return null;
    const start = pos;
    while (pos < text.length && /[A-Za-z_]/.test(text[pos] ?? '')) pos++;
    if (pos > start) {
      const name = text.slice(start, pos);
      if (text[pos] !== '(') return null;
      pos++;
      const args: Expr[] = [];
      for (;;) {
        const arg = value(depth + 1);
        if (arg === null) return null;
        args.push(arg);
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === ')') { pos++; return { name, args }; }
        return null;
      }
    }
    while (pos < text.length && /[0-9.eE+-]/.test(text[pos] ?? '')) pos++;
    const n = num(text.slice(start, pos));
    return n === undefined ? null : n;
  };
  const expr = value(0);
  return expr !== null && pos === text.length ? expr : null;
}
