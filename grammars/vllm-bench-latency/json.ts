import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject as isObject, type JsonValue, keyLines, parseJsonDocuments } from '../_shared/json/index.js';

/**
 * The `--output-json` file: `avg_latency`, `std_latency` (since 2025), `latencies` (one per
 * iteration: their count is `num_iters`) and `percentiles` keyed by percentage (`"99"`), all in
 * seconds, stored in ms.
 */
export function jsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const runs: RunRecord[] = [];
  for (const doc of parseJsonDocuments(source, sink)) {
    const obj = doc.value;
    const at = { file: source.path, line: doc.line, column: 1 };
    if (!isObject(obj) || typeof obj.avg_latency !== 'number') {
      sink.report('json/not-a-result', at, isObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
      continue;
    }
    const lines = keyLines.get(obj) ?? {};
    const b = new FieldMapBuilder();
    const seconds = (column: string, v: JsonValue | undefined, line: number) => {
      if (typeof v === 'number') b.set(column, scaleExact(v, 1000), line);
    };
    seconds('mean_batch_latency_ms', obj.avg_latency, lines.avg_latency ?? doc.line);
    seconds('std_batch_latency_ms', obj.std_latency, lines.std_latency ?? doc.line);
    const percentiles = obj.percentiles;
    if (isObject(percentiles)) {
      const at = keyLines.get(percentiles) ?? {};
      for (const [p, v] of Object.entries(percentiles)) if (/^\d+(?:\.\d+)?$/.test(p)) seconds(`p${p}_batch_latency_ms`, v, at[p] ?? doc.line);
    }
    if (Array.isArray(obj.latencies)) b.set('num_iters', obj.latencies.length, lines.latencies ?? doc.line);
    b.set('client', 'vllm-bench-latency', doc.line);
    b.set('engine', 'vllm', doc.line);
    runs.push({ kind: 'run', at, label: null, complete: true, fields: b.fields, lines: b.lines });
  }
  return runs;
}
