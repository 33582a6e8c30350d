import { withoutUnmeasuredLatencies } from '../_shared/none-completed.js';
import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { isSglangBlock } from '../_shared/serving-block/flavor.js';
import { addSpecGridPoint, addSpecGridSpeed, SPEC_GRID_CLIENT } from '../_shared/sglang-spec-grid.js';
import { type LooseEntry, parseServingBlocks, type ServingBlock } from '../_shared/serving-block/index.js';
import { addSglangEntries } from './block.js';
import { headerlessBlocks } from './headerless.js';
import { addSglangPreamble } from './preamble.js';
import { type GridSegment, gridSegments } from './speculative.js';

const HEADER = signature(['Serving Benchmark Result'], /^\W{0,8}=+ ?Serving Benchmark Result ?=+/m);
/** Lines only SGLang's bench_serving prints (vLLM's preamble also has `Traffic request rate:`). */
/** A block pasted from its `Backend:` line on, header cut off. */
const HEADERLESS = signature(['Successful requests:'], /^\W{0,8}(?:Benchmark Mode|Backend):\s+\S+[\s\S]{0,600}?^\W{0,8}Successful requests:\s+\d/m);
const SGLANG_LINE = signature(['Backend', 'Max re', 'Total generated tokens (retokenized)', 'Accept length', 'Mean E2E Latency (ms)'], /^\W{0,8}(?:Backend|Max re(?:qu|qe)est concurrency|Total generated tokens \(retokenized\)|Accept length|Mean E2E Latency \(ms\)):/m);

/** SGLang's serving benchmark stdout (`python -m sglang.bench_serving`), 2024 → 2026. */
export const grammar: Grammar = {
  id: 'sglang-bench-serving',
  title: 'SGLang serving benchmark output',
  readsLineText: true,
  detect({ head }) {
    if (HEADER.test(head) && SGLANG_LINE.test(head)) return { score: 0.85, reason: 'Serving Benchmark Result header with SGLang-only labels' };
    if (HEADERLESS.test(head)) return { score: 0.6, reason: 'SGLang result lines without their header' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseRuns(source, sink);
  },
};

/** A block to read as a run, with what it is read with. */
interface Pending {
  readonly block: ServingBlock;
  readonly preamble: readonly LooseEntry[];
  readonly floor: number;
}

function parseRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const ctx = documentContext(source.lines);
  const pending: Pending[] = [];
  let floor = -1; // 0-based index of the last line of the previous block
  let preamble: LooseEntry[] = [];
  /** Queues the headerless blocks found in the pending loose lines, then `block` unless line 0. */
  const take = (block: ServingBlock): void => {
    const found = headerlessBlocks(preamble, source);
    for (const h of found.blocks) {
      pending.push({ block: h, preamble: [], floor });
      floor = h.endLine - 1;
    }
    if (block.line > 0) pending.push({ block, preamble: found.rest, floor });
    floor = Math.max(floor, block.endLine - 1);
    preamble = [];
  };
  for (const item of parseServingBlocks(source)) {
    if (item.kind === 'kv') preamble.push(item);
    else if (isSglangBlock(item) && /serving benchmark/i.test(item.title)) take(item);
    else take({ ...item, line: 0 }); // a vLLM block: only closes the preamble
  }
  take({ kind: 'block', title: '', line: 0, endLine: 0, footer: false, entries: [], interleaved: [], spliced: [], gaps: [], suspectGaps: [] });
  const grid = gridOf(pending, source, sink);
  const runs: RunRecord[] = [];
  for (const p of pending) {
    const role = grid.get(p);
    if (role === undefined) runs.push(toRun(p.block, p.preamble, p.floor, source, ctx, sink));
    else if (role.measured) runs.push(toRun(p.block, p.preamble, p.floor, source, ctx, sink, role.segment));
    else sink.report('table/ignored-block', { file: source.path, line: p.block.line, column: 1 }, role.what);
  }
  return runs;
}

/** A block between a bench_speculative.py grid point's Start and Finish lines: its measured batch, or not. */
type GridRole = { readonly measured: true; readonly segment: GridSegment } | { readonly measured: false; readonly what: string };

/**
 * bench_speculative.py's console (speculative.ts): of the blocks between a grid point's Start and
 * Finish lines the last is the measured batch, the grid point's run; the ones before it (the
 * warm-up batch, `send_one_batch(base_url, batch_size, batch_size)`) are no measurement. A grid
 * point with no Finish says so (`block/unfinished-grid-point`) and its blocks stay plain runs.
 */
function gridOf(pending: readonly Pending[], source: TextSource, sink: DiagnosticSink): Map<Pending, GridRole> {
  const roles = new Map<Pending, GridRole>();
  const segments = gridSegments(source);
  if (segments.length === 0) return roles;
  let next = 0; // both in line order, segments apart: each block is looked at once
  for (const s of segments) {
    if (s.finish === null) {
      sink.report('block/unfinished-grid-point', { file: source.path, line: s.start, column: 1 }, `i=${s.index}`, s.settings);
      continue;
    }
    while (next < pending.length && (pending[next] as Pending).block.line <= s.start) next++;
    const inside: Pending[] = [];
    while (next < pending.length && (pending[next] as Pending).block.line < s.end) inside.push(pending[next++] as Pending);
    inside.forEach((p, k) => {
      if (k === inside.length - 1) roles.set(p, { measured: true, segment: s });
      else
        roles.set(p, {
          measured: false,
          what:
            k === 0
              ? `bench_speculative.py warm-up batch of grid point i=${s.index} (not a measurement: the block before Finish i=${s.index} is its run)`
              : `result block ${k + 1} of ${inside.length} of bench_speculative.py grid point i=${s.index} (not its measured batch: the block before Finish i=${s.index} is its run)`,
        });
    });
  }
  return roles;
}

function toRun(
  block: ServingBlock,
  preamble: readonly LooseEntry[],
  floor: number,
  source: TextSource,
  ctx: ReturnType<typeof documentContext>,
  sink: DiagnosticSink,
  grid?: GridSegment,
): RunRecord {
  const at = { file: source.path, line: block.line, column: 1 };
  const builder = new FieldMapBuilder();
  addSglangEntries(block, builder, sink, source.path);
  withoutUnmeasuredLatencies(builder, at, sink);
  // (at the line that states the grid point: its Start, or its Finish when the file has no Start)
  if (grid) builder.set('client', SPEC_GRID_CLIENT, grid.point.batch_size?.line ?? grid.start);
  else builder.set('client', 'sglang-bench-serving', block.line);
  addSglangPreamble(builder, preamble, source, floor + 1, block.line - 1, sink);
  const backend = builder.fields.backend;
  const engine = typeof backend === 'string' ? engineFromBackend(backend) : undefined;
  if (engine) builder.set('engine', engine, builder.lines.backend ?? block.line);
  if (grid) {
    // the grid point's settings (Start line) and speed (Finish line); the block's own measured
    // values stay (its output throughput, not the JSONL's speed × batch; its acceptance length)
    addSpecGridPoint(builder, grid.point);
    addSpecGridSpeed(builder, grid.speed, grid.stepTimeMs);
  }
  if (!block.footer) sink.report('block/truncated', { file: source.path, line: block.endLine, column: 1 }, 'no closing ==== line');
  return {
    kind: 'run',
    at,
    label: labelAbove(ctx, source.lines, block.line - 1, floor),
    complete: block.footer,
    fields: builder.fields,
    lines: builder.lines,
  };
}
