import { withoutUnmeasuredLatencies } from '../_shared/none-completed.js';
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
import { addMultiTurnEntries, isMultiTurnBlock } from './multi-turn.js';
import { splitAtHeadlessResults } from './headless.js';
import { addPreamble } from './preamble.js';
import { addSteadyState, bridgesSteadyState, continuesSteadyState, isSteadyStateWarning, startsSteadyState } from './steady-state.js';

// the Rust `vllm-bench` (2026) titles a pooling run's block `Embedding/Pooling Benchmark Result`, a
// `--multi-turn` run's `Multi-Turn Benchmark Result`; a fork or an edited script may name its run
// in the title (`==== Helion Serving Benchmark Result ====`)
const HEADER = signature(
  ['Serving Benchmark Result', 'Pooling Benchmark Result', 'Multi-Turn Benchmark Result'],
  /^\W{0,8}=+ ?(?:[\w.+-]+ ){0,3}(?:Serving|Embedding\/Pooling|Multi-Turn) Benchmark Result ?=+/m,
);
/** A block title naming its run before the standard words: the run's label. */
const NAMED_TITLE = /^(\S.*?)\s+(?:Serving|Embedding\/Pooling|Multi-Turn) Benchmark Result$/i;
// (another process's message of a few lines may lie between: the tokenizers' fork warning is 300 characters)
const LEGACY = signature(['Total time: '], /^\W{0,8}Total time: [\d.]+ s\s*$[\s\S]{0,600}^\W{0,8}Throughput: [\d.]+ requests\/s/m);

/** vLLM's serving benchmark stdout (`vllm bench serve`, `benchmark_serving.py`, forks), 2023 → 2026. */
export const grammar: Grammar = {
  id: 'vllm-bench-serve',
  title: 'vLLM serving benchmark output',
  readsLineText: true,
  detect({ head }) {
    if (HEADER.test(head)) return { score: 0.8, reason: 'Serving (Embedding/Pooling, Multi-Turn) Benchmark Result header' };
    if (LEGACY.test(head)) return { score: 0.6, reason: '2023 Total time / Throughput lines' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseRuns(source, sink);
  },
};

/** A block whose run is made once the lines after it are seen (the Rust client's steady-state section). */
interface PendingBlock {
  readonly block: ServingBlock;
  readonly preamble: readonly LooseEntry[];
  readonly floor: number;
  readonly steady: LooseEntry[];
  /** Whether lines after the block may still be its steady-state section. */
  open: boolean;
}

function parseRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const ctx = documentContext(source.lines);
  const runs: RunRecord[] = [];
  let floor = -1; // 0-based index of the last line of the previous block
  let preamble: LooseEntry[] = [];
  let pending: PendingBlock | null = null;
  const flush = (): void => {
    if (pending) runs.push(toRun(pending, source, ctx, sink));
    pending = null;
  };
  // what the 2023 layout's reader needs of the items (loose lines and where blocks end), not the blocks themselves
  const legacy: LegacyItem[] = [];
  for (const item of parseServingBlocks(source)) {
    if (item.kind === 'kv') {
      if (pending?.open && takesSteadyLine(pending, item, source.lines)) continue;
      if (pending) pending.open = false;
      preamble.push(item);
      if (isLegacyLine(item)) legacy.push(item);
      continue;
    }
    flush();
    if (!isSglangBlock(item)) {
      const { headless, after } = splitAtHeadlessResults(preamble);
      reportHeadless(headless, source, sink);
      // the block's preamble, label and launch arguments are looked for below those lines
      const below = headless.length > 0 ? Math.max(floor, (headless.at(-1) as LooseEntry).line - 1) : floor;
      pending = { block: item, preamble: after, floor: below, steady: [], open: item.footer };
    }
    floor = item.endLine - 1;
    preamble = [];
    legacy.push({ kind: 'block', endLine: item.endLine });
  }
  flush();
  reportHeadless(splitAtHeadlessResults(preamble).headless, source, sink);
  for (const run of legacyRuns(legacy, source, ctx, sink)) runs.push(run);
  return runs.sort((a, b) => a.at.line - b.at.line);
}

/** Result lines outside any block (splitAtHeadlessResults): said, since no run is made of them. */
function reportHeadless(headless: readonly LooseEntry[], source: TextSource, sink: DiagnosticSink): void {
  const first = headless[0];
  if (first) sink.report('block/headless', { file: source.path, line: first.line, column: 1 }, headless.length);
}

/**
 * Whether a line after a block is (the start of) its steady-state section; the section's lines are
 * held for its run. Between the block's footer and the section, or between two of its lines, may
 * come its title or a rule, and up to three other lines (blank, another process's, text).
 */
function takesSteadyLine(pending: PendingBlock, entry: LooseEntry, lines: readonly string[]): boolean {
  const last = pending.steady.at(-1);
  const hasStart = pending.steady.some(startsSteadyState);
  const belongs = hasStart ? continuesSteadyState(entry) : startsSteadyState(entry) || (pending.steady.length === 0 && isSteadyStateWarning(entry));
  if (!belongs || !bridgesSteadyState(lines, last?.line ?? pending.block.endLine, entry.line)) return false;
  pending.steady.push(entry);
  return true;
}

function toRun(pending: PendingBlock, source: TextSource, ctx: ReturnType<typeof documentContext>, sink: DiagnosticSink): RunRecord {
  const { block, preamble, floor, steady } = pending;
  const at = { file: source.path, line: block.line, column: 1 };
  const builder = new FieldMapBuilder();
  if (isMultiTurnBlock(block)) addMultiTurnEntries(block, builder, sink, source.path);
  else addBlockEntries(block, VLLM_BLOCK_LABELS, builder, sink, source.path);
  withoutUnmeasuredLatencies(builder, at, sink);
  const isTrtFork = builder.has('user_throughput');
  builder.set('client', isTrtFork ? 'trtllm-benchmark-serving' : 'vllm-bench-serve', block.line);
  addPreamble(builder, preamble, source, floor + 1, block.line - 1, sink);
  // a warning printed alone after a block is not a section
  if (steady.some(startsSteadyState)) addSteadyState(builder, steady, source.path, sink);
  if (block.entries.length === 0) sink.report('block/empty', at);
  if (!block.footer) sink.report('block/truncated', { file: source.path, line: block.endLine, column: 1 }, 'no closing ==== line');
  return {
    kind: 'run',
    at,
    label: NAMED_TITLE.exec(block.title)?.[1] ?? labelAbove(ctx, source.lines, block.line - 1, floor),
    complete: block.footer,
    ...compactFieldMap(builder),
  };
}
