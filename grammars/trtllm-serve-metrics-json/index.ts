import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { type TimelineRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import { firstKeyLine, type JsonDocument, type JsonValue, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { isObject, metricsEntry } from './fields.js';

const SIGNATURE = /"(?:iterLatencyMS|inflightBatchingStats|kvCacheStats)"\s*:/;

/** `trtllm-serve` `GET /metrics`: a JSON array of iteration statistics (camelCase keys). */
export const grammar: Grammar = {
  id: 'trtllm-serve-metrics-json',
  title: 'TensorRT-LLM /metrics iteration stats JSON',
  detect({ head }) {
    if (!looksLikeJson(head) || !SIGNATURE.test(head)) return NOT_MINE;
    return { score: 0.85, reason: 'JSON with iterLatencyMS / kvCacheStats keys' };
  },
  parse(source, sink) {
    // (a dump cut by `curl | head` or a killed server is read up to its last whole value: json/cut)
    return toRecords(parseJsonDocuments(source, sink), source, sink);
  },
};

function toRecords(docs: readonly JsonDocument[], source: TextSource, sink: DiagnosticSink): TimelineRecord[] {
  const series = new TimelineSeriesBuilder();
  for (const doc of docs) {
    const items: JsonValue[] = Array.isArray(doc.value) ? doc.value : [doc.value];
    for (const item of items) {
      if (!isObject(item)) continue;
      const line = firstKeyLine(item) ?? doc.line;
      const at = { file: source.path, line, column: 1 };
      if (!('iter' in item) && !('iterLatencyMS' in item)) {
        sink.report('json/not-a-result', at, Object.keys(item).slice(0, 6).join(', '));
        continue;
      }
      series.push(metricsEntry(item, at));
    }
  }
  return timelineRecords(source.path, series, sink);
}

