import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { isSglangBlock } from '../_shared/serving-block/flavor.js';
import { type LooseEntry, parseServingBlocks, type ServingBlock } from '../_shared/serving-block/index.js';
import { addSglangEntries } from './block.js';
import { headerlessBlocks } from './headerless.js';
import { addSglangPreamble } from './preamble.js';

const HEADER = signature(['Serving Benchmark Result'], /^\W{0,8}=+ ?Serving Benchmark Result ?=+/m);
/** Lines only SGLang's bench_serving prints (vLLM's preamble also has `Traffic request rate:`). */
/** A block pasted from its `Backend:` line on, header cut off. */
const HEADERLESS = signature(['Successful requests:'], /^\W{0,8}(?:Benchmark Mode|Backend):\s+\S+[\s\S]{0,600}?^\W{0,8}Successful requests:\s+\d/m);
const SGLANG_LINE = signature(['Backend', 'Max re', 'Total generated tokens (retokenized)', 'Accept length', 'Mean E2E Latency (ms)'], /^\W{0,8}(?:Backend|Max re(?:qu|qe)est concurrency|Total generated tokens \(retokenized\)|Accept length|Mean E2E Latency \(ms\)):/m);

/** SGLang's serving benchmark stdout (`python -m sglang.bench_serving`), 2024 → 2026. */
export const grammar: Grammar = {
  id: 'sglang-bench-serving',
  title: 'SGLang serving benchmark output',
  detect({ head }) {
    if (HEADER.test(head) && SGLANG_LINE.test(head)) return { score: 0.85, reason: 'Serving Benchmark Result header with SGLang-only labels' };
    if (HEADERLESS.test(head)) return { score: 0.6, reason: 'SGLang result lines without their header' };
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
  /** Emits the headerless blocks found in the pending loose lines, then `block` unless line 0. */
  const take = (block: ServingBlock): void => {
    const found = headerlessBlocks(preamble, source);
    for (const h of found.blocks) {
      runs.push(toRun(h, [], floor, source, ctx, sink));
      floor = h.endLine - 1;
    }
    if (block.line > 0) runs.push(toRun(block, found.rest, floor, source, ctx, sink));
    floor = Math.max(floor, block.endLine - 1);
    preamble = [];
  };
  for (const item of parseServingBlocks(source)) {
    if (item.kind === 'kv') preamble.push(item);
    else if (isSglangBlock(item) && /serving benchmark/i.test(item.title)) take(item);
    else take({ ...item, line: 0 }); // a vLLM block: only closes the preamble
  }
  take({ kind: 'block', title: '', line: 0, endLine: 0, footer: false, entries: [], interleaved: [], spliced: [] });
  return runs;
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
  addSglangEntries(block, builder, sink, source.path);
  builder.set('client', 'sglang-bench-serving', block.line);
  addSglangPreamble(builder, preamble, source, floor + 1, block.line - 1, sink);
  const backend = builder.fields.backend;
  const engine = typeof backend === 'string' ? engineFromBackend(backend) : undefined;
  if (engine) builder.set('engine', engine, builder.lines.backend ?? block.line);
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
