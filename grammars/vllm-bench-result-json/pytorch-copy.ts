import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { RelPath } from '../../src/core/types.js';
import { isJsonObject, type JsonValue } from '../_shared/json/index.js';

/**
 * vLLM's benchmarks, under `SAVE_TO_PYTORCH_BENCHMARK_FORMAT`, write the result they save a second
 * time beside it (`X.json` → `X.pytorch.json`, `vllm/benchmarks/lib/utils.py`): a list of records,
 * one per metric, `{benchmark: {name: "vLLM benchmark", extra_info: {args}}, model, metric: {name,
 * benchmark_values, extra_info}}`. Which metrics, and what `extra_info` holds, changes with the
 * command and the release; the values are those of the result JSON written with it, read there.
 * Told by how the file starts (json.dump keeps the records' key order), not by a search of the
 * whole head: detection runs on every JSON file of a folder, and a result's head is mostly arrays.
 */
export const PYTORCH_COPY = /^\s*\[\s*\{\s*"benchmark"\s*:\s*\{\s*"name"\s*:\s*"vLLM benchmark"/;

/** A document that is such a list of metric records. */
export function isPytorchCopy(value: JsonValue): value is JsonValue[] {
  return Array.isArray(value) && value.length > 0 && value.every((r) => isJsonObject(r) && isJsonObject(r.benchmark) && r.benchmark.name === 'vLLM benchmark' && isJsonObject(r.metric) && typeof r.metric.name === 'string');
}

/** Says what the copy is and where its values are read, once for the document at `line`. */
export function reportPytorchCopy(records: readonly JsonValue[], path: RelPath, line: number, sink: DiagnosticSink): void {
  const name = path.split('/').at(-1) ?? path;
  const copyOf = name.endsWith('.pytorch.json') ? JSON.stringify(`${name.slice(0, -'.pytorch.json'.length)}.json`) : 'the result JSON';
  sink.report('json/pytorch-copy', { file: path, line, column: 1 }, records.length, copyOf);
}
