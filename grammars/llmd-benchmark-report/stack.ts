import type { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { isJsonObject, type JsonObject, type JsonValue, linesOf } from './tree.js';
import { num, obj, str } from './stats.js';

/**
 * The serving engine of a component's `tool` / image (`tool_version`, `registry/repo/name:tag`):
 * llm-d's images (`ghcr.io/llm-d/llm-d-cuda`) serve with vLLM. Undefined when neither names one.
 */
export function engineOf(...names: readonly (string | undefined)[]): string | undefined {
  const text = names.filter((n) => n !== undefined).join(' ').toLowerCase();
  if (text.includes('sglang')) return 'sglang';
  if (/tensorrt|trt-?llm/.test(text)) return 'trtllm';
  if (/text-generation-inference|(?:^|[/\s:_-])tgi(?:$|[/\s:_-])/.test(text)) return 'tgi';
  if (text.includes('vllm') || text.includes('llm-d')) return 'vllm';
  return undefined;
}

/**
 * The engine's version from an image of the engine itself (`vllm/vllm-openai:v0.11.0` → `0.11.0`,
 * `lmsysorg/sglang:v0.5.2-cu126` → `0.5.2`); llm-d's images are tagged with llm-d's own release,
 * not vLLM's: none.
 */
export function engineVersionOf(image: string | undefined): string | undefined {
  if (image === undefined || image.toLowerCase().includes('llm-d')) return undefined;
  const slash = image.lastIndexOf('/');
  const colon = image.indexOf(':', slash + 1);
  if (colon < 0) return undefined;
  const tag = image.slice(colon + 1);
  return /^v?(\d+\.\d+(?:\.\d+)?(?:(?:rc|post|\.post|\.dev)\d*)?)(?:$|[-+])/.exec(tag)?.[1];
}

/**
 * A short GPU name from a node label value (`NVIDIA-H100-80GB-HBM3` → `H100`, `AMD-Instinct-MI300X`
 * → `MI300X`, `NVIDIA-L40S` → `L40S`): its first part that looks like a GPU model; else as written.
 */
export function gpuOf(model: string): string {
  for (const part of model.split(/[-_:\s/]+/)) {
    if (/^[a-z]{1,3}\d{2,4}[a-z]{0,3}$/i.test(part)) return part.toUpperCase();
  }
  return model;
}

/** An inference engine component of `scenario.stack` (v0.2), with its role and replica count. */
export interface EngineComponent {
  readonly component: JsonObject;
  readonly standardized: JsonObject;
  readonly role: string;
  readonly replicas: number;
  readonly line: number;
}

/**
 * The stack's inference engines. The component kind is `metadata.kind` in reports before the
 * discriminator moved, `standardized.kind` after (the 0.2.1 module); `replicas` (added with
 * llm-d's modelservice) defaults to 1, as does a component without it (one per pod then).
 */
export function engineComponents(stack: JsonValue | undefined, line: number): EngineComponent[] {
  if (!Array.isArray(stack)) return [];
  const out: EngineComponent[] = [];
  for (const item of stack) {
    if (!isJsonObject(item)) continue;
    const standardized = obj(item.standardized);
    const kind = str(standardized.kind) ?? str(obj(item.metadata).kind);
    if (kind !== 'inference_engine') continue;
    const lines = linesOf(item);
    const itemLine = Math.min(...Object.values(lines), Number.POSITIVE_INFINITY);
    out.push({
      component: item,
      standardized,
      role: (str(standardized.role) ?? 'replica').toLowerCase(),
      replicas: num(standardized.replicas) ?? 1,
      line: Number.isFinite(itemLine) ? itemLine : line,
    });
  }
  return out;
}

/** Generic components that route requests (llm-d's inference scheduler, the EPP): their `tool`. */
export function routerOf(stack: JsonValue | undefined): { tool: string; line: number } | undefined {
  if (!Array.isArray(stack)) return undefined;
  for (const item of stack) {
    if (!isJsonObject(item)) continue;
    const standardized = obj(item.standardized);
    const kind = str(standardized.kind) ?? str(obj(item.metadata).kind);
    const tool = str(standardized.tool);
    const label = str(obj(item.metadata).label) ?? '';
    if (kind === 'inference_engine' || tool === undefined) continue;
    if (/schedul|\bepp\b|epp-|router/i.test(`${tool} ${label}`)) return { tool, line: linesOf(standardized).tool ?? linesOf(item).standardized ?? 1 };
  }
  return undefined;
}

/**
 * A component's standardized section: engine (from `tool` and the image), the image, model,
 * accelerator (`gpu`, `num_gpus` per replica), parallel sizes, and `replicas`.
 */
export function addEngine(builder: FieldMapBuilder, c: EngineComponent, prefix: '' | 'prefill_'): void {
  const s = c.standardized;
  const lines = linesOf(s);
  const at = (key: string): number => lines[key] ?? c.line;
  const tool = str(s.tool);
  const image = str(s.tool_version);
  if (prefix === '') {
    builder.set('engine', engineOf(tool, image), at(tool !== undefined ? 'tool' : 'tool_version'));
    builder.set('engine_version', engineVersionOf(image), at('tool_version'));
    builder.set('engine_image', image, at('tool_version'));
    builder.set('model', str(obj(s.model).name), linesOf(obj(s.model)).name ?? at('model'));
  }
  const accelerator = obj(s.accelerator);
  const accLines = linesOf(accelerator);
  const accLine = accLines.model ?? at('accelerator');
  const gpu = str(accelerator.model);
  if (gpu !== undefined) {
    builder.set(`${prefix}gpu`, gpuOf(gpu), accLine);
    if (prefix === '' && gpuOf(gpu) !== gpu) builder.set('accelerator_model', gpu, accLine);
  }
  const parallelism = obj(accelerator.parallelism);
  const parLines = linesOf(parallelism);
  for (const key of ['tp', 'pp', 'dp', 'ep'] as const) {
    builder.set(`${prefix}${key}`, num(parallelism[key]), parLines[key] ?? accLines.parallelism ?? accLine);
  }
  // llm-d's own sizes (data-parallel ranks per pod, pods per multi-node replica): only when above 1
  for (const [key, column] of [['dp_local', 'dp_local'], ['dpLocal', 'dp_local'], ['workers', 'workers']] as const) {
    const value = num(parallelism[key]);
    if (value !== undefined && value > 1) builder.set(`${prefix}${column}`, value, parLines[key] ?? accLine);
  }
}

/**
 * A component's (or the load generator's) native command-line arguments (`--tensor-parallel-size:
 * 8`, or without the dashes, values as strings: `tensor-parallel-size: '8'`) → flag columns, through
 * the shared flag table (`speculative-config` unfolded into `spec_method`, `draft_model`,
 * `num_spec_tokens`). A flag given without a value (`--enforce-eager: null`) is a switch turned
 * on; `--no-<flag>` one turned off. A value the converter cut out of a shell command keeps the
 * shell's quotes (the text `'{"method": "eagle3", …}'`): they are taken off.
 */
export function addNativeArgs(builder: FieldMapBuilder, args: JsonValue | undefined, line: number): void {
  if (!isJsonObject(args)) return;
  const lines = linesOf(args);
  for (const [rawKey, raw] of Object.entries(args)) {
    const key = rawKey.trim().replace(/^-+/, '');
    if (key === '') continue;
    const off = /^no[-_](.+)$/.exec(key);
    const flag = raw === null && off?.[1] ? off[1] : key;
    const value: PyValue = raw === null ? off === null : typeof raw === 'string' ? unquote(raw) : (raw as PyValue);
    addFlags(builder, { [flag]: value }, lines[rawKey] ?? line);
  }
}

/** A value without the shell quotes around it (`'{"method": "eagle3"}'` → `{"method": "eagle3"}`). */
function unquote(value: string): string {
  const t = value.trim();
  return t.length >= 2 && (t[0] === "'" || t[0] === '"') && t.at(-1) === t[0] ? t.slice(1, -1) : t;
}
