import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import type { OneBatchLine, OneBatchSection } from './visitor.js';

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
 * The runs of one `Benchmark ...` section. The tool prints that header once, before its whole
 * sweep (every batch size × input length × output length), and then each case's lines with no
 * header of their own: a case starts at its `Prefill.` line and ends at its `Total.` line. Lines
 * before the first case (a skipped case's `skipping (…)`, profiler notes) carry no result. A
 * section cut before its first case is kept as one partial run at its header, so that a crashed
 * benchmark still shows.
 */
export function sectionRuns(section: OneBatchSection, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const cases: OneBatchLine[][] = [];
  for (const l of section.lines) {
    if (l.type === 'Prefill') cases.push([l]);
    else cases.at(-1)?.push(l);
  }
  if (cases.length === 0) return [caseRun(section.line, [], source, sink)];
  return cases.map((lines) => caseRun((lines[0] as OneBatchLine).line, lines, source, sink));
}

/**
 * One case of the sweep → a run, at its `Prefill.` line. Latencies are printed in seconds and
 * stored in ms; old builds print `Decode.  latency:` per step instead of a median, so the median
 * is taken here. A case with no `Total.` line (the run killed, or cut from the log) is partial.
 */
function caseRun(start: number, lines: readonly OneBatchLine[], source: TextSource, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  const steps: { ms: number; tput: number | undefined; line: number }[] = [];
  let median = false;
  let total = false;
  for (const l of lines) {
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
  b.set('client', 'sglang-bench-one-batch', start);
  b.set('engine', 'sglang', start);
  const last = lines.at(-1)?.line ?? start;
  if (!total) sink.report('block/truncated', { file: source.path, line: last, column: 1 }, 'no Total. line');
  return { kind: 'run', at: { file: source.path, line: start, column: 1 }, label: null, complete: total, fields: b.fields, lines: b.lines };
}
