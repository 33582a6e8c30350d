import type { FieldMapBuilder } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { canonicalSpecMethod } from '../../src/normalize/spec-method.js';
import type { JsonObject, JsonValue } from '../_shared/json/index.js';

/** Where a key's value was written: its own line, else the object's. */
export type LineOf = (key: string) => number;

/** A finite number (an int written as a string by an environment variable is read too). */
export function num(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*$/i.test(value)) return Number(value);
  return undefined;
}

/** `true`/`false` as process_result.py copies them from the environment (`"true"`, `"false"`) or as booleans; `""` is unknown. */
export function bool(value: JsonValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  return undefined;
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * InferenceX `framework` → the server engine. The framework names the orchestration too
 * (`dynamo-trt`, `dynamo-sglang`, `sglang-disagg`, `mori-sglang`): the engine is the one inside.
 * `trt` is TensorRT-LLM. Any other (AMD's `atom`) names no engine benchlens knows: null, the
 * `framework` column keeps it.
 */
export function engineOf(framework: string): string | undefined {
  const f = framework.toLowerCase();
  if (/(?:^|[-_])trt(?:llm|-llm)?(?:$|[-_])/.test(f) || f.includes('tensorrt')) return 'trtllm';
  if (f.includes('sglang')) return 'sglang';
  if (f.includes('vllm')) return 'vllm';
  return undefined;
}

/**
 * The runner type (`RUNNER_TYPE`: `h200`, `h200-trt`, `b200-nvs`, `mi355x`, `gb200`) → the GPU
 * name (`H200`, `B200`, `MI355X`, `GB200`): its first part that looks like one.
 */
export function gpuOf(hw: string): string | undefined {
  for (const part of hw.split(/[-_:\s/]+/)) {
    if (/^[a-z]{1,3}\d{2,4}[a-z]{0,3}$/i.test(part)) return part.toUpperCase();
  }
  return undefined;
}

/** Precisions that are a compute dtype, not a quantization (→ `dtype`). */
const DTYPES: Readonly<Record<string, string>> = Object.freeze({ bf16: 'bfloat16', bfloat16: 'bfloat16', fp16: 'float16', float16: 'float16', fp32: 'float32', float32: 'float32' });

/** `precision` (`fp8`, `fp4`, `mxfp4`, `bf16`) → `quantization`, or `dtype` for an unquantized model. */
export function addPrecision(builder: FieldMapBuilder, value: JsonValue | undefined, line: number): void {
  const p = text(value)?.toLowerCase();
  if (p === undefined) return;
  const dtype = DTYPES[p];
  if (dtype !== undefined) builder.set('dtype', dtype, line);
  else builder.set('quantization', p, line);
}

/**
 * Speculative decoding: `spec_decoding` (`SPEC_DECODING`: `none`, `mtp`, `draft_model`) from
 * late 2025; before it, `mtp` (the `MTP_MODE` variable, written only when set).
 */
export function addSpec(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf): void {
  const spec = text(obj.spec_decoding);
  if (spec !== undefined) builder.set('spec_method', canonicalSpecMethod(spec), lineOf('spec_decoding'));
  else if (obj.mtp !== undefined && obj.mtp !== null) {
    const on = bool(obj.mtp) ?? (typeof obj.mtp === 'string' ? /^(?:on|enabled?|mtp)$/i.test(obj.mtp.trim()) || undefined : undefined);
    const off = typeof obj.mtp === 'string' && /^(?:off|disabled?|none|)$/i.test(obj.mtp.trim());
    if (on === true) builder.set('spec_method', 'mtp', lineOf('mtp'));
    else if (on === false || off) builder.set('spec_method', 'none', lineOf('mtp'));
  }
  const k = num(obj.num_speculative_tokens);
  if (k !== undefined && k > 0) builder.set('num_spec_tokens', k, lineOf('num_speculative_tokens'));
}

/**
 * An agentic trace-replay aggregate (`utils/agentic/process_agentic_result.py`, AIPerf as the
 * client): it names its `scenario_type` (`agentic-coding`), which process_result.py never writes.
 */
export function isAgentic(obj: JsonObject): boolean {
  return typeof obj.scenario_type === 'string' && obj.scenario_type.trim() !== '';
}

/** The GPUs each per-GPU throughput was divided by (process_result.py, by version), or null when the file does not say. */
export interface Divisors {
  readonly total: number;
  readonly output: number;
  readonly input: number;
}

/**
 * How process_result.py divided the client's throughputs, by the keys its version wrote:
 * - `is_multinode: true`: total over prefill + decode GPUs, output over the decode GPUs (all
 *   of them for a multi-node aggregated run, `num_decode_gpu` 0), input over the prefill GPUs;
 * - `is_multinode: false`: all three over `tp × pp × pcp_size` (`pp`, `pcp_size` 1 before they
 *   were written);
 * - no `is_multinode` (before it, 2025): total over `tp`; output over `num_decode_gpu` and input
 *   over `num_prefill_gpu` for a disaggregated run (`disagg: true`), else over `tp` too;
 * - an agentic aggregate (`isAgentic`): all three over every GPU (prefill + decode GPUs on
 *   several nodes, else `tp × pp × pcp_size`).
 */
export function divisorsOf(obj: JsonObject): Divisors | null {
  const prefill = num(obj.num_prefill_gpu);
  const decode = num(obj.num_decode_gpu);
  const multinode = bool(obj.is_multinode);
  if (isAgentic(obj)) {
    // process_agentic_result.py divides all three by every GPU of the run
    const n = multinode === true ? (prefill ?? 0) + (decode ?? 0) : (num(obj.tp) ?? 0) * (num(obj.pp) ?? 1) * (num(obj.pcp_size) ?? 1);
    return n > 0 ? { total: n, output: n, input: n } : null;
  }
  if (multinode === true) {
    if (prefill === undefined || decode === undefined || prefill <= 0 || decode < 0) return null;
    return { total: prefill + decode, output: decode > 0 ? decode : prefill + decode, input: prefill };
  }
  const tp = num(obj.tp);
  if (tp === undefined || tp <= 0) return null;
  if (multinode === false) {
    const n = tp * (num(obj.pp) ?? 1) * (num(obj.pcp_size) ?? 1);
    return { total: n, output: n, input: n };
  }
  if (bool(obj.disagg) === true && prefill !== undefined && decode !== undefined && prefill > 0 && decode > 0) {
    return { total: tp, output: decode, input: prefill };
  }
  return { total: tp, output: tp, input: tp };
}

/**
 * Parallel sizes. A single-node run: `tp`, `ep`, `pp`, `dp_attention`. A multi-node run keeps
 * each side's: a disaggregated one is described by its decode workers (`tp`, `ep`, `pp`,
 * `enable_dp_attention`), the prefill workers' under `prefill_…`, with `disaggregation = pd` and
 * the worker counts as `num_prefill_servers` / `num_decode_servers` (as sglang-bench-result-jsonl
 * does); a multi-node aggregated one (no decode GPUs) by its workers, their count in `num_workers`.
 */
export function addParallelism(builder: FieldMapBuilder, obj: JsonObject, lineOf: LineOf): void {
  const set = (column: string, value: FieldValue | undefined, key: string): void => {
    if (value !== undefined) builder.set(column, value, lineOf(key));
  };
  const prefillGpus = num(obj.num_prefill_gpu);
  const decodeGpus = num(obj.num_decode_gpu);
  const multinode = bool(obj.is_multinode) === true;
  // a multi-node run is disaggregated when it has decode GPUs, whatever `disagg` says (an
  // aggregated multi-node run reports none; process_result.py itself came to classify so)
  const disagg = multinode ? (decodeGpus ?? 0) > 0 : bool(obj.disagg) === true;
  if (multinode) {
    const side = disagg ? 'decode' : 'prefill';
    set('tp', positive(obj[`${side}_tp`]), `${side}_tp`);
    set('ep', positive(obj[`${side}_ep`]), `${side}_ep`);
    set('pp', positive(obj[`${side}_pp`]), `${side}_pp`);
    set('enable_dp_attention', bool(obj[`${side}_dp_attention`]), `${side}_dp_attention`);
    set('dcp_size', positive(obj[`${side}_dcp_size`]), `${side}_dcp_size`);
    set('pcp_size', positive(obj[`${side}_pcp_size`]), `${side}_pcp_size`);
    if (disagg) {
      set('disaggregation', 'pd', 'disagg');
      set('num_prefill_servers', num(obj.prefill_num_workers), 'prefill_num_workers');
      set('num_decode_servers', num(obj.decode_num_workers), 'decode_num_workers');
      for (const size of ['tp', 'ep', 'pp', 'dcp_size', 'pcp_size'] as const) set(`prefill_${size}`, positive(obj[`prefill_${size}`]), `prefill_${size}`);
      set('prefill_enable_dp_attention', bool(obj.prefill_dp_attention), 'prefill_dp_attention');
    } else set('num_workers', num(obj.prefill_num_workers), 'prefill_num_workers');
  } else {
    set('tp', positive(obj.tp), 'tp');
    set('ep', positive(obj.ep), 'ep');
    set('pp', positive(obj.pp), 'pp');
    set('enable_dp_attention', bool(obj.dp_attention), 'dp_attention');
    set('dcp_size', positive(obj.dcp_size), 'dcp_size');
    set('pcp_size', positive(obj.pcp_size), 'pcp_size');
    if (disagg) set('disaggregation', 'pd', 'disagg');
  }
  set('num_prefill_gpu', prefillGpus, 'num_prefill_gpu');
  set('num_decode_gpu', decodeGpus, 'num_decode_gpu');
  // every GPU the run used, as InferenceX counts them
  if (prefillGpus !== undefined && decodeGpus !== undefined && (multinode || disagg)) set('num_gpus', prefillGpus + decodeGpus, 'num_prefill_gpu');
  else if (!multinode) {
    const tp = positive(obj.tp);
    if (tp !== undefined) set('num_gpus', tp * (positive(obj.pp) ?? 1) * (positive(obj.pcp_size) ?? 1), 'tp');
  }
}

function positive(value: JsonValue | undefined): number | undefined {
  const n = num(value);
  return n !== undefined && n > 0 ? n : undefined;
}
