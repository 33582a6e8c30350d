import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import { METRICS } from '../guidellm-json/distribution.js';
import { isList, type StatColumn } from './columns.js';

/** What the percentile list holds, in order: `[min, p001, p01, p05, p10, p25, p75, p90, p95, p99, max]`. */
const PERCENTILE_LIST = ['min', 'p0.1', 'p1', 'p5', 'p10', 'p25', 'p75', 'p90', 'p95', 'p99', 'max'] as const;

/** Where a cell is, for its diagnostics. */
export interface CellPlace {
  readonly file: RelPath;
  readonly line: number;
  readonly sink: DiagnosticSink;
}

/**
 * Adds one cell of a successful-requests distribution to the builder: a number, or the percentile
 * list Python prints (`[0.41, 0.42, …]`). A cell that is neither is reported and left out.
 */
export function addStatCell(builder: FieldMapBuilder, column: StatColumn, cell: string, at: CellPlace): void {
  const spec = METRICS[column.metric];
  if (!spec || column.status !== 'successful' || cell === '') return;
  const values = column.stat === 'percentiles' ? percentileValues(cell) : singleValue(cell);
  if (values === null) {
    at.sink.report('table/bad-cell', { file: at.file, line: at.line, column: 1 }, column.label, cell);
    return;
  }
  const named: ReadonlyArray<readonly [string, number | null]> = column.stat === 'percentiles' ? PERCENTILE_LIST.map((stat, k) => [stat, values[k] ?? null]) : [[column.stat, values[0] ?? null]];
  for (const [stat, value] of named) {
    if (value === null || (spec.meanOnly && stat !== 'mean')) continue;
    const name = spec.meanOnly ? spec.pattern : spec.pattern.replace('{stat}', stat);
    builder.set(name, scaleExact(value, spec.scale ?? 1), at.line);
  }
}

/** A number (null for Python's `nan`), or null when the cell is not one. */
function singleValue(cell: string): Array<number | null> | null {
  const n = readNumber(cell);
  return n.ok && n.rest === '' ? [n.value] : null;
}

function percentileValues(cell: string): Array<number | null> | null {
  if (!isList(cell)) return null;
  const values = cell.slice(1, -1).split(',').map((v) => singleValue(v.trim()));
  if (values.length !== PERCENTILE_LIST.length || values.some((v) => v === null)) return null;
  return values.map((v) => (v as Array<number | null>)[0] ?? null);
}
