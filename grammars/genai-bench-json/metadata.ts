import { FieldMapBuilder, type ConfigRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/** True for genai-bench's `experiment_metadata.json` (genai_bench/protocol.py, ExperimentMetadata). */
export function isMetadataObject(obj: JsonObject): boolean {
  return typeof obj.benchmark_version === 'string' && typeof obj.api_backend === 'string' && (Object.hasOwn(obj, 'traffic_scenario') || Object.hasOwn(obj, 'max_time_per_run_s'));
}

function str(v: JsonValue | undefined): string | undefined {
  // (`dataset_path` is written `str(dataset_path)`: "None" when no dataset was given)
  return typeof v === 'string' && v.trim() !== '' && v.trim() !== 'None' ? v.trim() : undefined;
}

function int(v: JsonValue | undefined): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  // `--server-gpu-count` is a string option: "8"
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

/**
 * `--server-engine` (cli/option_groups.py: `vLLM`, `SGLang`, `TGI`, `cohere-TensorRT`,
 * `cohere-vLLM`) → the schema's engine: Cohere's builds are named after the engine they run.
 */
export function engineOf(name: string): string | undefined {
  const n = name.trim().replace(/^cohere-/i, '');
  if (/^tgi$/i.test(n)) return 'tgi';
  if (/^tensorrt/i.test(n)) return 'trtllm';
  return engineFromBackend(n);
}

/** The metadata's configuration: one ConfigRecord for the runs of its experiment folder (client `genai-bench`). */
export function toConfig(obj: JsonObject, at: SourcePos): ConfigRecord | null {
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  const b = new FieldMapBuilder();
  const engine = str(obj.server_engine);
  if (engine !== undefined) {
    b.set('engine', engineOf(engine), lineOf('server_engine'));
    b.set('server_engine', engine, lineOf('server_engine'));
  }
  // without `--server-engine`: the `sglang` and `vllm` API backends name their server
  const backend = str(obj.api_backend);
  if (backend !== undefined) b.set('engine', engineFromBackend(backend), lineOf('api_backend'));
  const version = str(obj.server_version);
  if (version !== undefined) b.set('engine_version', version.replace(/^v(?=\d)/i, ''), lineOf('server_version'));
  b.set('gpu', str(obj.server_gpu_type), lineOf('server_gpu_type'));
  b.set('num_gpus', int(obj.server_gpu_count), lineOf('server_gpu_count'));
  b.set('model', str(obj.model), lineOf('model'));
  const served = str(obj.api_model_name);
  if (served !== undefined && served !== str(obj.model)) b.set('served_model_name', served, lineOf('api_model_name'));
  b.set('backend', str(obj.api_backend), lineOf('api_backend'));
  b.set('task', str(obj.task), lineOf('task'));
  b.set('tokenizer', str(obj.server_model_tokenizer), lineOf('server_model_tokenizer'));
  b.set('dataset_path', str(obj.dataset_path), lineOf('dataset_path'));
  b.set('client_version', str(obj.benchmark_version), lineOf('benchmark_version'));
  b.set('max_time_per_run_s', int(obj.max_time_per_run_s), lineOf('max_time_per_run_s'));
  b.set('max_requests_per_run', int(obj.max_requests_per_run), lineOf('max_requests_per_run'));
  const params = obj.additional_request_params;
  if (isJsonObject(params)) {
    const flat: Record<string, PyValue> = {};
    for (const [k, v] of Object.entries(params)) if (v === null || typeof v !== 'object') flat[k] = v as PyValue;
    addFlags(b, flat, lineOf('additional_request_params'));
  }
  if (b.size === 0) return null;
  // the tool whose runs it describes: linking gives it to those only (link-runs.ts, linkBenchConfig)
  b.set('client', 'genai-bench', at.line);
  return { kind: 'config', at, origin: 'bench-config', fields: b.fields, lines: b.lines };
}
