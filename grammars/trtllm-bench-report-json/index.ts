import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { scaleExact } from '../../src/parse/values.js';
import { type JsonDocument, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { settleIssueRate, settleLengths } from '../trtllm-bench/fields.js';
import { breakdownColumn, decodingMethod, schedulingPolicy, statName } from '../trtllm-bench/labels.js';
import { type KeySpec, PERCENTILE_KEYS, SCALAR_KEYS, SECTIONS } from './keys.js';

const SIGNATURE = /"(?:world_info|request_info)"\s*:/;

type JsonObject = { [key: string]: JsonValue };

/** `trtllm-bench --report_json FILE`: the statistics dict behind the text report. */
export const grammar: Grammar = {
  id: 'trtllm-bench-report-json',
  title: 'TensorRT-LLM trtllm-bench --report_json',
  detect({ head }) {
    if (!looksLikeJson(head) || !SIGNATURE.test(head)) return NOT_MINE;
    return { score: 0.85, reason: 'JSON with world_info / request_info sections' };
  },
  parse(source, sink) {
    return parseJsonDocuments(source, sink).flatMap((doc) => toRun(doc, source, sink));
  },
};

function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

function toRun(doc: JsonDocument, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at = { file: source.path, line: doc.line, column: 1 };
  const root = doc.value;
  if (!isObject(root)) return [];
  if (SECTIONS.filter((s) => isObject(root[s])).length < 2) {
    sink.report('json/not-a-result', at, Object.keys(root).slice(0, 6).join(', '));
    return [];
  }
  const builder = new FieldMapBuilder();
  builder.set('engine', 'trtllm', doc.line);
  builder.set('client', 'trtllm-bench', doc.line);
  const rootLines = keyLines.get(root) ?? {};
  for (const [section, keys] of Object.entries(SCALAR_KEYS)) {
    const obj = root[section];
    if (!isObject(obj)) continue;
    const lines = keyLines.get(obj) ?? {};
    for (const [key, spec] of Object.entries(keys)) {
      if (!Object.hasOwn(obj, key)) continue;
      const value = scalar(obj[key], spec, builder.fields.backend);
      if (value !== undefined) builder.set(spec.column, value, lines[key] ?? rootLines[section] ?? doc.line);
    }
    for (const [key, target] of Object.entries(PERCENTILE_KEYS[section] ?? {})) {
      const stats = obj[key];
      if (isObject(stats)) addPercentiles(stats, target, builder, lines[key] ?? doc.line);
    }
  }
  settleDataset(builder);
  settleLengths(builder);
  settleIssueRate(builder);
  return [{ kind: 'run', at, label: null, complete: isObject(root.performance), fields: builder.fields, lines: builder.lines }];
}

/** A key's value as its column holds it; `backend` (read before `decoding_stats`) names the method of a mode. */
function scalar(raw: JsonValue | undefined, spec: KeySpec, backend: FieldValue | undefined): FieldValue | undefined {
  if (raw === undefined || isObject(raw) || Array.isArray(raw)) return undefined;
  if (raw === null || raw === 'None' || raw === 'N/A') return null;
  if (typeof raw === 'number') return spec.scale ? scaleExact(raw, spec.scale) : raw;
  if (typeof raw !== 'string') return raw;
  if (spec.kind === 'policy') return schedulingPolicy(raw);
  if (spec.kind === 'spec-method') return decodingMethod(raw, backend);
  if (spec.kind === 'backend') return /^trt|tensorrt/i.test(raw) ? 'tensorrt' : raw.toLowerCase();
  return raw;
}

function addPercentiles(stats: JsonObject, target: { group: string } | { dataset: string }, builder: FieldMapBuilder, line: number): void {
  const lines = keyLines.get(stats) ?? {};
  for (const [key, value] of Object.entries(stats)) {
    if (typeof value !== 'number') continue;
    const stat = statName(key);
    const column = 'group' in target ? breakdownColumn(target.group, key) : stat === null ? null : `dataset_${stat}_${target.dataset}`;
    if (column !== null) builder.set(column, value, lines[key] ?? line);
  }
}
