import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { SourcePos } from '../../../src/core/types.js';
import type { JsonValue } from './parser.js';

type JsonObject = { [key: string]: JsonValue };

/**
 * Keys every serving-benchmark result object (vLLM `--save-result`, SGLang JSONL) has at least one
 * of: its counts and throughput, or, where a script kept only the latencies (vllm-ascend's nightly
 * `serving_*.json`), their statistics.
 */
const SERVING_RESULT_KEYS = ['completed', 'request_throughput', 'duration', 'mean_ttft_ms', 'mean_tpot_ms', 'mean_e2el_ms'];

/**
 * The document as a serving-benchmark result object, or null: not an object (nothing to say) or an
 * object without result keys (a `json/not-a-result` info naming its first keys).
 */
export function servingResultObject(value: JsonValue, at: SourcePos, sink: DiagnosticSink): JsonObject | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  if (!SERVING_RESULT_KEYS.some((k) => Object.hasOwn(value, k))) {
    sink.report('json/not-a-result', at, Object.keys(value).slice(0, 6).join(', '));
    return null;
  }
  return value;
}
