import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { compactFieldMap, FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { addBlockEntries } from '../_shared/serving-block/fields.js';
import { type LooseEntry, parseServingBlocks, type ServingBlock } from '../_shared/serving-block/index.js';
import { isSglangBlock } from '../_shared/serving-block/flavor.js';
import { isLegacyLine, type LegacyItem, legacyRuns } from './legacy.js';
import { VLLM_BLOCK_LABELS } from './labels.js';
import { addPreamble } from './preamble.js';

const HEADER = signature(['Serving Benchmark Result'], /^\W{0,8}=+ ?Serving Benchmark Result ?=+/m);
const LEGACY = signature(['Total time: '], /^\W{0,8}Total time: [\d.]+ s\s*$[\s\S]{0,200}^\W{0,8}Throughput: [\d.]+ requests\/s/m);

/** vLLM's serving benchmark stdout (`vllm bench serve`, `benchmark_serving.py`, forks), 2023 → 2026. */
export const grammar: Grammar = {
  id: 'vllm-bench-serve',
  title: 'vLLM serving benchmark output',
  detect({ head }) {
    if (HEADER.test(head)) return { score: 0.8, reason: 'Serving Benchmark Result header' };
    if (LEGACY.test(head)) return { score: 0.6, reason: '2023 Total time / Throughput lines' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseRuns(source, sink);
  },
};

function parseRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const ctx = documentContext(source.lines);
  const runs: RunRecord[] = [];
  let floor = -1; // 0-based index of the last line of the previous block
  let preamble: LooseEntry[] = [];
  // what the 2023 layout's reader needs of the items (loose lines and where blocks end), not the blocks themselves
  const legacy: LegacyItem[] = [];
  for (const item of parseServingBlocks(source)) {
    if (item.kind === 'kv') {
      preamble.push(item);
      if (isLegacyLine(item)) legacy.push(item);
      continue;
    }
    if (!isSglangBlock(item)) runs.push(toRun(item, preamble, floor, source, ctx, sink));
    floor = item.endLine - 1;
    preamble = [];
    legacy.push({ kind: 'block', endLine: item.endLine });
  }
  for (const run of legacyRuns(legacy, source, ctx, sink)) runs.push(run);
  return runs.sort((a, b) => a.at.line - b.at.line);
}

function toRun(
  block: ServingBlock,
  preamble: readonly LooseEntry[],
  floor: number,
  source: TextSource,
  ctx: ReturnType<typeof documentContext>,
  sink: DiagnosticSink,
): RunRecord {
  const at = { file: source.path, line: block.line, column: 1 };
  const builder = new FieldMapBuilder();
  addBlockEntries(block, VLLM_BLOCK_LABELS, builder, sink, source.path);
  const isTrtFork = builder.has('user_throughput');
  builder.set('client', isTrtFork ? 'trtllm-benchmark-serving' : 'vllm-bench-serve', block.line);
  addPreamble(builder, preamble, source, floor + 1, block.line - 1, sink);
  if (block.entries.length === 0) sink.report('block/empty', at);
  if (!block.footer) sink.report('block/truncated', { file: source.path, line: block.endLine, column: 1 }, 'no closing ==== line');
  return {
    kind: 'run',
    at,
    label: labelAbove(ctx, source.lines, block.line - 1, floor),
    complete: block.footer,
    ...compactFieldMap(builder),
  };
}
