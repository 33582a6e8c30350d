import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { lookupTable } from '../../src/core/cells.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { acceptedObjects } from '../_shared/json/index.js';

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
  return acceptedObjects(source, sink, (o) => typeof o.requests_per_second === 'number').map(({ obj, lines, at }) => {
    const b = new FieldMapBuilder();
    for (const [key, column] of Object.entries(KEYS)) {
      const v = obj[key];
      if (typeof v === 'number') b.set(column, v, lines[key] ?? at.line);
    }
    b.set('client', 'vllm-bench-throughput', at.line);
    b.set('engine', 'vllm', at.line);
    return { kind: 'run', at, label: null, complete: true, fields: b.fields, lines: b.lines } satisfies RunRecord;
  });
}
