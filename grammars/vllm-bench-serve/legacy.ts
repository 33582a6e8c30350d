import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { type DocumentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import { linesBetween } from '../_shared/interleaved-line.js';
import { labelKey, type LooseEntry } from '../_shared/serving-block/index.js';
import { LEGACY_LABELS } from './labels.js';
import { addPreamble } from './preamble.js';

/** What the 2023 layout's reader takes of a source's items: its loose lines, and where each block ends. */
export type LegacyItem = LooseEntry | { readonly kind: 'block'; readonly endLine: number };

/** A loose line the 2023 layout printed (`Total time:`, `Throughput:`, …). */
export function isLegacyLine(item: LooseEntry): boolean {
  return LEGACY_LABELS[labelKey(item.label)] !== undefined;
}

/**
 * The 2023 `benchmark_serving.py` printed no block, only `Total time: X s`, `Throughput: X
 * requests/s`, `Average latency: X s`, … on consecutive lines (a line between them aside, and
 * other processes' lines). A group that has both `Total time` and `Throughput … requests/s` is one run.
 */
export function legacyRuns(items: readonly LegacyItem[], source: TextSource, ctx: DocumentContext, sink: DiagnosticSink): RunRecord[] {
  const runs: RunRecord[] = [];
  let group: { label: string; value: string; line: number }[] = [];
  let floor = -1;
  const flush = (): void => {
    const keys = group.map((g) => labelKey(g.label));
    const throughput = group.find((g) => labelKey(g.label) === 'throughput');
    if (keys.includes('total time') && throughput && /requests\/s/.test(throughput.value)) {
      runs.push(toRun(group, source, ctx, floor, sink));
    }
    if (group.length > 0) floor = (group.at(-1)?.line ?? 0) - 1;
    group = [];
  };
  for (const item of items) {
    if (item.kind === 'block') {
      flush();
      floor = item.endLine - 1;
      continue;
    }
    if (!isLegacyLine(item)) continue;
    const last = group.at(-1);
    if (last && linesBetween(source.lines, last.line, item.line).own > 1) flush();
    group.push(item);
  }
  flush();
  return runs;
}

function toRun(
  group: readonly { label: string; value: string; line: number }[],
  source: TextSource,
  ctx: DocumentContext,
  floor: number,
  sink: DiagnosticSink,
): RunRecord {
  const first = group[0]?.line ?? 1;
  const builder = new FieldMapBuilder();
  for (const g of group) {
    const spec = LEGACY_LABELS[labelKey(g.label)];
    const v = readNumber(g.value);
    if (!spec || !v.ok || v.value === null) {
      sink.report('block/bad-value', { file: source.path, line: g.line, column: 1 }, g.label, g.value);
      continue;
    }
    builder.set(spec.column, scaleExact(v.value, spec.scale), g.line);
  }
  builder.set('client', 'vllm-bench-serve', first);
  addPreamble(builder, [], source, floor + 1, first - 2, sink);
  // The script always printed all five lines: fewer means the output was cut.
  const seen = new Set(group.map((g) => labelKey(g.label)));
  const missing = Object.keys(LEGACY_LABELS).filter((k) => !seen.has(k));
  if (missing.length > 0) sink.report('block/truncated', { file: source.path, line: group.at(-1)?.line ?? first, column: 1 }, `missing ${missing.join(', ')}`);
  return {
    kind: 'run',
    at: { file: source.path, line: first, column: 1 },
    label: labelAbove(ctx, source.lines, first - 1, floor),
    complete: missing.length === 0,
    fields: builder.fields,
    lines: builder.lines,
  };
}
