import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { TypedLine } from '../../src/parse/chevrotain.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import { addEngineArgs, namespaceAbove } from '../_shared/namespace/index.js';
import { groupResults, labelAndValue, type ResultLines, withFloors } from '../_shared/result-lines/index.js';

const SECONDS = /:\s*(\S+)\s+seconds?\s*$/;
const PERCENT = /^\s*(\d+(?:\.\d+)?)% /;

/** The column a result line's value goes to: `mean_batch_latency_ms`, `p99_batch_latency_ms`, … */
function columnOf(l: TypedLine): string {
  if (l.type === 'AvgLatency') return 'mean_batch_latency_ms';
  if (l.type === 'StdLatency') return 'std_batch_latency_ms';
  return `p${PERCENT.exec(l.text)?.[1] ?? ''}_batch_latency_ms`;
}

/**
 * One run per `Avg latency:` line with the statistics below it (groupResults), seconds stored in
 * ms. The last `Namespace(...)` dump since the previous result (`benchmark_latency.py` printed its
 * arguments first) gives the configuration.
 */
export function latencyRuns(lines: readonly TypedLine[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const ctx = documentContext(source.lines);
  const results = groupResults(lines, (l) => l.type === 'AvgLatency', columnOf, source.path, sink);
  return withFloors(results, (r, floor) => toRun(r, source, ctx, floor, sink));
}

function toRun(r: ResultLines, source: TextSource, ctx: ReturnType<typeof documentContext>, floor: number, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  for (const l of [r.head, ...r.lines]) {
    const m = SECONDS.exec(l.text);
    const v = m?.[1] === undefined ? null : readNumber(m[1]);
    if (v?.ok && v.value !== null) b.set(columnOf(l), scaleExact(v.value, 1000), l.line);
    else {
      const { label, value } = labelAndValue(l);
      sink.report('block/bad-value', { file: source.path, line: l.line, column: 1 }, label, value);
    }
  }
  b.set('client', 'vllm-bench-latency', r.head.line);
  b.set('engine', 'vllm', r.head.line);
  const dump = namespaceAbove(source.lines, floor + 1, r.head.line - 2);
  if (dump) addEngineArgs(b, dump);
  const complete = b.has('p99_batch_latency_ms');
  if (!complete) sink.report('block/truncated', { file: source.path, line: r.last, column: 1 }, 'no 99% percentile latency line');
  return {
    kind: 'run',
    at: { file: source.path, line: r.head.line, column: 1 },
    label: labelAbove(ctx, source.lines, r.head.line - 1, floor),
    complete,
    fields: b.fields,
    lines: b.lines,
  };
}
