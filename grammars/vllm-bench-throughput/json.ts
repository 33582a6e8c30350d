import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { lookupTable } from '../../src/core/cells.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { isJsonObject as isObject, keyLines, parseJsonDocuments } from '../_shared/json/index.js';

/** `--output-json` keys → columns (`total_num_tokens` is prompt and output tokens together). */
const KEYS: Readonly<Record<string, string>> = lookupTable({
  elapsed_time: 'duration_s',
  num_requests: 'completed',
  total_num_tokens: 'total_tokens',
  requests_per_second: 'request_throughput',
  tokens_per_second: 'total_token_throughput',
  // forks add these
  total_input_tokens: 'total_input_tokens',
  total_output_tokens: 'total_output_tokens',
});

/** The `--output-json` file of `vllm bench throughput`: one object. */
export function jsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const runs: RunRecord[] = [];
  for (const doc of parseJsonDocuments(source, sink)) {
    const obj = doc.value;
    const at = { file: source.path, line: doc.line, column: 1 };
    if (!isObject(obj) || typeof obj.requests_per_second !== 'number') {
      sink.report('json/not-a-result', at, isObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
      continue;
    }
    const lines = keyLines.get(obj) ?? {};
    const b = new FieldMapBuilder();
    for (const [key, column] of Object.entries(KEYS)) {
      const v = obj[key];
      if (typeof v === 'number') b.set(column, v, lines[key] ?? doc.line);
    }
    b.set('client', 'vllm-bench-throughput', doc.line);
    b.set('engine', 'vllm', doc.line);
    runs.push({ kind: 'run', at, label: null, complete: true, fields: b.fields, lines: b.lines });
  }
  return runs;
}
