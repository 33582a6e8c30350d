import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { scaleExact } from '../../src/parse/values.js';
import { reportRepairs, snakeCase } from '../_shared/serving-block/fields.js';
import { labelKey, parseServingBlocks, type ServingBlock } from '../_shared/serving-block/index.js';
import { holdsServerLog, readBlockNumber } from '../_shared/serving-block/splices.js';
import { OFFLINE_LABELS } from './labels.js';
import { recordRuns } from './records.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';

const HEADER = signature(['Offline Throughput Benchmark Result'], /^\W{0,8}=+ ?Offline Throughput Benchmark Result ?=+/m);
const NOV_2024 = signature(['Throughput: '], /^[^\S\n]*Throughput: [\d.]+ tokens\/s\s*$/m);
const JSON_LINE = signature(['last_gen_throughput'], /^[^\S\n]*\{.*"successful_requests"\s*:.*"last_gen_throughput"\s*:/m);

/** `python -m sglang.bench_offline_throughput`: result block, Nov-2024 lines, JSON result lines. */
export const grammar: Grammar = readingPastInterleavedLines({
  id: 'sglang-bench-offline',
  title: 'SGLang offline throughput benchmark',
  readsLineText: true,
  detect({ head }) {
    if (HEADER.test(head)) return { score: 0.85, reason: 'Offline Throughput Benchmark Result header' };
    if (NOV_2024.test(head) && /^[^\S\n]*\{'/m.test(head)) return { score: 0.7, reason: 'Throughput: X tokens/s + dict line' };
    if (JSON_LINE.test(head)) return { score: 0.8, reason: 'JSON lines with last_gen_throughput' };
    return NOT_MINE;
  },
  parse(source, sink) {
    const ctx = documentContext(source.lines);
    const runs: RunRecord[] = [];
    let floor = -1;
    for (const item of parseServingBlocks(source)) {
      if (item.kind !== 'block') continue;
      if (/offline throughput/i.test(item.title)) runs.push(blockRun(item, source, floor, ctx, sink));
      floor = item.endLine - 1;
    }
    for (const run of recordRuns(source, sink)) runs.push(run);
    return runs.sort((a, b) => a.at.line - b.at.line);
  },
});

function blockRun(block: ServingBlock, source: TextSource, floor: number, ctx: ReturnType<typeof documentContext>, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  for (const e of block.entries) {
    const at = { file: source.path, line: e.line, column: 1 };
    const key = labelKey(e.label);
    if (key === 'backend') {
      if (holdsServerLog(e.value)) sink.report('block/bad-value', at, e.label, e.value);
      else b.set('backend', e.value.split(/\s+/)[0], e.line);
      continue;
    }
    const spec = OFFLINE_LABELS[key];
    const v = readBlockNumber(e.value);
    if (!v.ok) sink.report('block/bad-value', at, e.label, e.value);
    else if (!spec) {
      sink.report('block/unknown-label', at, e.label);
      b.set(snakeCase(e.label), v.value, e.line);
    } else if (v.value !== null) b.set(spec.column, scaleExact(v.value, spec.scale ?? 1), e.line);
  }
  reportRepairs(block, sink, source.path);
  b.set('client', 'sglang-bench-offline', block.line);
  b.set('engine', 'sglang', block.line);
  if (!block.footer) sink.report('block/truncated', { file: source.path, line: block.endLine, column: 1 }, 'no closing ==== line');
  return {
    kind: 'run',
    at: { file: source.path, line: block.line, column: 1 },
    label: labelAbove(ctx, source.lines, block.line - 1, floor),
    complete: block.footer,
    fields: b.fields,
    lines: b.lines,
  };
}
