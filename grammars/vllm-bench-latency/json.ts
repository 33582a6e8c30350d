import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { acceptedObjects, isJsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * The `--output-json` file: `avg_latency`, `std_latency` (since 2025), `latencies` (one per
 * iteration: their count is `num_iters`) and `percentiles` keyed by percentage (`"99"`), all in
 * seconds, stored in ms.
 */
export function jsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  return acceptedObjects(source, sink, (o) => typeof o.avg_latency === 'number').map(({ obj, lines, at }) => {
    const b = new FieldMapBuilder();
    const seconds = (column: string, v: JsonValue | undefined, line: number) => {
      if (typeof v === 'number') b.set(column, scaleExact(v, 1000), line);
    };
    seconds('mean_batch_latency_ms', obj.avg_latency, lines.avg_latency ?? at.line);
    seconds('std_batch_latency_ms', obj.std_latency, lines.std_latency ?? at.line);
    const percentiles = obj.percentiles;
    if (isJsonObject(percentiles)) {
      const where = keyLines.get(percentiles) ?? {};
      for (const [p, v] of Object.entries(percentiles)) if (/^\d+(?:\.\d+)?$/.test(p)) seconds(`p${p}_batch_latency_ms`, v, where[p] ?? at.line);
    }
    if (Array.isArray(obj.latencies)) b.set('num_iters', obj.latencies.length, lines.latencies ?? at.line);
    b.set('client', 'vllm-bench-latency', at.line);
    b.set('engine', 'vllm', at.line);
    return { kind: 'run', at, label: null, complete: true, fields: b.fields, lines: b.lines } satisfies RunRecord;
  });
}
