import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../../src/core/records.js';
import type { RelPath, SourcePos } from '../../../src/core/types.js';
import { percentToFraction } from '../../../src/parse/values.js';
import { labelKey, latencyColumn } from './index.js';
import { readBlockNumber } from './splices.js';
import type { ServingBlock } from './visitor.js';

export type ValueKind = 'count' | 'number' | 'percent';
export interface LabelSpec {
  readonly column: string;
  readonly kind: ValueKind;
}

/** Units and words that may follow a value without being a human annotation. */
const UNIT_TAIL = /^(?:%|s|ms|rps\.?|req\/s|tok\/s|tokens?\/s|requests\/s|x)?$/i;
/** A server log line that a `tee` interleaved into the block. */
const LOG_LINE = /^(?:INFO|WARNING|WARN|DEBUG|ERROR|CRITICAL)\b|\[[\w./-]+\.py:\d+\]|^\(\w+ pid=\d+\)|^\[\d{4}-\d\d-\d\d /;

/**
 * Reads a block's entries into canonical columns through an alias table. Unknown labels are kept
 * under their snake_case name with a warning (forward compatibility); nothing is silently lost.
 */
export function addBlockEntries(
  block: ServingBlock,
  labels: Readonly<Record<string, LabelSpec>>,
  builder: FieldMapBuilder,
  sink: DiagnosticSink,
  file: RelPath,
): void {
  // by the position each line names: a line may be missing, or name a position far off (a garbled digit)
  const positions = new Map<number, number>();
  let positionsLine = 0;
  let interleaved = block.interleaved.length;
  let firstInterleaved = block.interleaved[0] ?? 0;
  for (const e of block.entries) {
    const at = { file, line: e.line, column: 1 };
    const key = labelKey(e.label);
    const position = /^position (\d+)$/.exec(key);
    if (position?.[1] && /per position/i.test(labelKey(e.section ?? ''))) {
      const v = readBlockNumber(e.value);
      if (!v.ok || v.value === null) sink.report('block/bad-value', at, e.label, e.value);
      else {
        const n = Number(position[1]);
        if (positions.has(n)) sink.report('block/duplicate-label', at, e.label);
        else positions.set(n, percentToFraction(v.value));
        if (positionsLine === 0) positionsLine = e.line;
      }
      continue;
    }
    const spec: LabelSpec | undefined = labels[key] ?? latencySpec(key);
    if (!spec) {
      if (LOG_LINE.test(e.label)) {
        interleaved++;
        if (firstInterleaved === 0 || e.line < firstInterleaved) firstInterleaved = e.line;
        continue;
      }
      sink.report('block/unknown-label', at, e.label);
      const v = readBlockNumber(e.value);
      builder.set(snakeCase(e.label), v.ok ? v.value : e.value, e.line);
      continue;
    }
    const v = readBlockNumber(e.value);
    if (!v.ok) {
      sink.report('block/bad-value', at, e.label, e.value);
      continue;
    }
    if (v.rest !== '' && !UNIT_TAIL.test(v.rest)) sink.report('block/annotated-value', at, e.label, v.rest);
    const value = v.value !== null && spec.kind === 'percent' ? percentToFraction(v.value) : v.value;
    if (!builder.set(spec.column, value, e.line)) sink.report('block/duplicate-label', at, e.label);
  }
  if (positions.size > 0) addPositions(positions, builder, sink, { file, line: positionsLine, column: 1 });
  if (interleaved > 0) sink.report('block/interleaved-line', { file, line: firstInterleaved, column: 1 }, interleaved);
  reportRepairs(block, sink, file);
}

/**
 * The per-position acceptance rates, position 0 first, up to the first position with no value: the
 * list is read by its index, so one missing would give every position after it its successor's rate.
 */
function addPositions(positions: ReadonlyMap<number, number>, builder: FieldMapBuilder, sink: DiagnosticSink, at: SourcePos): void {
  const rates: number[] = [];
  for (let p = positions.get(0); p !== undefined; p = positions.get(rates.length)) rates.push(p);
  if (rates.length < positions.size) sink.report('block/position-gap', at, rates.length, positions.size - rates.length);
  if (rates.length > 0) builder.set('spec_per_position_acceptance', rates, at.line);
}

/** Each line of the block that server output split in two and was put back together (splices.ts), and the gaps it was read across (resume.ts). */
export function reportRepairs(block: ServingBlock, sink: DiagnosticSink, file: RelPath): void {
  for (const s of block.spliced) sink.report('block/spliced-line', { file, line: s.line, column: 1 });
  const [firstGap] = block.gaps;
  if (firstGap !== undefined) sink.report('block/gap-line', { file, line: firstGap, column: 1 }, block.gaps.length);
  const [firstSuspect] = block.suspectGaps;
  if (firstSuspect !== undefined) sink.report('block/numbers-in-gap', { file, line: firstSuspect, column: 1 }, block.suspectGaps.length);
}

function latencySpec(key: string): LabelSpec | undefined {
  const column = latencyColumn(key);
  return column ? { column, kind: 'number' } : undefined;
}

/** `Accuracy Rate (%)` → `accuracy_rate_pct`: a column name for a label we do not know yet. */
export function snakeCase(label: string): string {
  return (
    label
      .toLowerCase()
      .replace(/\(%\)/g, 'pct')
      .replace(/\((.*?)\)/g, '$1')
      .replace(/[^a-z0-9.]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'unnamed'
  );
}
