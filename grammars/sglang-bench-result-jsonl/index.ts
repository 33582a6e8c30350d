import { withoutUnmeasuredLatencies } from '../_shared/none-completed.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { servingResultObject } from '../_shared/json/result-object.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { toField } from '../../src/normalize/flags.js';
import { type JsonValue, keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { datasetKnobApplies, datasetKnobColumn, isEmbeddingBackend } from '../sglang-bench-serving/dataset-knobs.js';
import { addCacheReport } from './cache-report.js';
import { latencyKey, PER_REQUEST_KEYS, SGLANG_JSON_KEYS } from './keys.js';
import { addServerInfo } from './server-info.js';

const SIGNATURE = /"(?:total_throughput|random_input_len|dataset_name)"\s*:/;
/** Keys of other tools' JSON that also carry `total_throughput` (vLLM, SGLang offline/one-batch). */
const FOREIGN = /"(?:model_id|tokenizer_id|successful_requests|prefill_latency)"\s*:/;

/** SGLang `bench_serving --output-file` JSONL: one object appended per run. */
export const grammar: Grammar = {
  id: 'sglang-bench-result-jsonl',
  title: 'SGLang serving benchmark result JSONL',
  detect({ head }) {
    if (!SIGNATURE.test(head) || FOREIGN.test(head) || !/"backend"\s*:/.test(head)) return NOT_MINE;
    return { score: 0.8, reason: 'JSON lines with total_throughput / random_input_len keys' };
  },
  skim: PER_REQUEST_KEYS,
  parse(source, sink) {
    const docs = parseJsonDocuments(source, sink);
    return docs.flatMap((d) => toRun(d.value, d.line, source, sink));
  },
};

function toRun(value: JsonValue, line: number, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at = { file: source.path, line, column: 1 };
  const obj = servingResultObject(value, at, sink);
  if (obj === null) return [];
  const lines = keyLines.get(obj) ?? {};
  const builder = new FieldMapBuilder();
  for (const [key, value] of Object.entries(obj)) {
    const at = lines[key] ?? line;
    if (!appliesTo(key, obj.dataset_name, obj.backend)) continue;
    const latency = latencyKey(key);
    if (isEmbeddingBackend(obj.backend) && unmeasuredForEmbeddings(key, latency)) continue;
    const mapped = Object.hasOwn(SGLANG_JSON_KEYS, key) ? SGLANG_JSON_KEYS[key] : latency ?? datasetKnobColumn(key, typeof obj.dataset_name === 'string' ? obj.dataset_name : null);
    if (mapped === null || mapped === undefined || value === null || typeof value === 'object') continue;
    if (mapped === 'request_rate' && value === 'trace') {
      builder.set('request_rate_mode', 'trace', at);
      continue;
    }
    const field = toField(mapped, value);
    if (field !== undefined) builder.set(mapped, field, at);
  }
  builder.set('client', 'sglang-bench-serving', line);
  withoutUnmeasuredLatencies(builder, at, sink);
  const info = obj.server_info;
  if (isObject(info)) addServerInfo(builder, info, lines.server_info ?? line);
  const cacheReport = obj.cache_report;
  if (isObject(cacheReport)) addCacheReport(builder, cacheReport, lines.cache_report ?? line);
  settleDataset(builder);
  const backend = builder.fields.backend;
  const engine = typeof backend === 'string' ? engineFromBackend(backend) : undefined;
  if (engine) builder.set('engine', engine, builder.lines.backend ?? line);
  const label = typeof obj.tag === 'string' && obj.tag !== '' ? obj.tag : null;
  return [{ kind: 'run', at, label, complete: true, fields: builder.fields, lines: builder.lines }];
}

/**
 * An embedding request streams no token (2026, `async_request_openai_embeddings`): its TTFT / TPOT /
 * ITL statistics are the zeros of empty lists, and `max_output_tokens_per_s` counts each request's
 * start as a token. The text block leaves them unprinted (`is_embedding`); E2E latency is measured.
 */
function unmeasuredForEmbeddings(key: string, latency: string | null): boolean {
  return key === 'max_output_tokens_per_s' || (latency !== null && !latency.includes('_e2el_'));
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The line's dataset knobs describe the run only for the datasets that use them, its output
 * lengths only when it generates (not for the 2026 embedding backends, dataset-knobs.ts).
 */
function appliesTo(key: string, dataset: JsonValue | undefined, backend: JsonValue | undefined): boolean {
  return datasetKnobApplies(key, typeof dataset === 'string' ? dataset : null, backend);
}
