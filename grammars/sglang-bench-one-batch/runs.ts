import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import type { OneBatchSection } from './visitor.js';

const PAIR = /latency:\s*(\S+)\s*s,\s*(?:median )?throughput:\s*(\S+)\s*token\/s/;
const BATCH = /Batch size:\s*(\d+)/;

/** Seconds as printed → ms; `nan` (output_len 1 in old builds) → absent. */
export function secondsToMs(text: string): number | undefined {
  const v = readNumber(text);
  return v.ok && v.value !== null ? scaleExact(v.value, 1000) : undefined;
}

function num(text: string): number | undefined {
  const v = readNumber(text);
  return v.ok && v.value !== null ? v.value : undefined;
}

/**
 * One run per `Benchmark ...` section. Latencies are printed in seconds and stored in ms; old
 * builds print `Decode.  latency:` per step instead of a median, so the median is taken here.
 */
export function sectionRun(section: OneBatchSection, source: TextSource, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  const steps: { ms: number; tput: number | undefined; line: number }[] = [];
  let median = false;
  let total = false;
  for (const l of section.lines) {
    const pair = PAIR.exec(l.text);
    if (l.type === 'DecodeStep') {
      const bs = BATCH.exec(l.text);
      if (bs?.[1]) b.set('batch_size', Number(bs[1]), l.line);
      continue;
    }
    if (!pair?.[1] || !pair[2]) continue;
    if (l.type === 'Prefill') {
      b.set('prefill_latency_ms', secondsToMs(pair[1]), l.line);
      b.set('prefill_throughput', num(pair[2]), l.line);
    } else if (l.type === 'DecodeMedian' && /median latency/.test(l.text)) {
      median = true;
      b.set('median_decode_latency_ms', secondsToMs(pair[1]), l.line);
      b.set('median_decode_throughput', num(pair[2]), l.line);
    } else if (l.type === 'DecodeMedian') {
      const ms = secondsToMs(pair[1]);
      if (ms !== undefined) steps.push({ ms, tput: num(pair[2]), line: l.line });
    } else if (l.type === 'Total') {
      total = true;
      b.set('total_latency_ms', secondsToMs(pair[1]), l.line);
      b.set('total_token_throughput', num(pair[2]), l.line);
    }
  }
  if (!median && steps.length > 0) {
    const sorted = [...steps].sort((x, y) => x.ms - y.ms);
    const mid = sorted[Math.floor((sorted.length - 1) / 2)];
    if (mid) {
      b.set('median_decode_latency_ms', mid.ms, mid.line);
      b.set('median_decode_throughput', mid.tput, mid.line);
    }
  }
  b.set('client', 'sglang-bench-one-batch', section.line);
  b.set('engine', 'sglang', section.line);
  const last = section.lines.at(-1)?.line ?? section.line;
  if (!total) sink.report('block/truncated', { file: source.path, line: last, column: 1 }, 'no Total. line');
  return { kind: 'run', at: { file: source.path, line: section.line, column: 1 }, label: null, complete: total, fields: b.fields, lines: b.lines };
}
