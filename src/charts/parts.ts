import { distinct, text } from './fields.js';
import { SPLIT_ORDER } from './legibility.js';
import type { ChartResult, Row } from './types.js';

/** A term of a part's filter: the rows whose `column` shows `value` (null: the rows without one). */
export interface PartTerm {
  readonly column: string;
  readonly value: string | null;
}

/** One part of a crowded chart: the terms that select its rows, and the chart of them. */
export interface ChartPart {
  /** Broadest column first. */
  readonly terms: readonly PartTerm[];
  readonly rows: readonly Row[];
  readonly result: ChartResult;
}

/** Columns a chart is cut along: those of SPLIT_ORDER but the load, the x axis of most charts. */
const PART_COLUMNS = SPLIT_ORDER.filter((c) => c !== 'max_concurrency');

function isCrowded(result: ChartResult): boolean {
  return result.ok && result.crowded !== undefined;
}

/** The fewest parts a part's chart can be cut into (1 when it can be read whole). */
function minPartsOf(result: ChartResult): number {
  return result.ok ? (result.minParts ?? 1) : 1;
}

/**
 * A crowded chart cut into parts that can each be read, at most `maxParts` of them, or null when
 * that takes more: the rows are split by the broadest column that varies (model first, then
 * dataset, engine, tp, …), and only a part still crowded is split further, so every part holds the
 * rows `benchlens plot --filter <its terms>` keeps. A part may have nothing to draw (e.g. a model
 * with baseline runs only): its result says why.
 */
export function legibleParts(rows: readonly Row[], build: (rows: readonly Row[]) => ChartResult, maxParts: number): ChartPart[] | null {
  let parts: ChartPart[] = [{ terms: [], rows, result: build(rows) }];
  for (const column of PART_COLUMNS) {
    if (!parts.some((p) => isCrowded(p.result))) break;
    // 1,320 lines at 30 a chart take 44 parts however they are cut: no part need be drawn to know
    if (parts.reduce((n, p) => n + minPartsOf(p.result), 0) > maxParts) return null;
    // the values each crowded part splits into, counted before any part is drawn
    const splits = parts.map((p) => (isCrowded(p.result) ? valuesOf(p.rows, column) : []));
    if (splits.reduce((n, values) => n + Math.max(values.length, 1), 0) > maxParts) return null;
    parts = parts.flatMap((part, i) => {
      const values = splits[i] ?? [];
      if (values.length < 2) return [part];
      return values.map((value) => {
        const sub = part.rows.filter((r) => text(r[column]) === value);
        return { terms: [...part.terms, { column, value }], rows: sub, result: build(sub) };
      });
    });
  }
  return parts.some((p) => isCrowded(p.result)) ? null : parts;
}

/** The column's distinct values in the rows, sorted, then null when some rows have none. */
function valuesOf(rows: readonly Row[], column: string): (string | null)[] {
  const values: (string | null)[] = distinct(rows, column);
  if (rows.some((r) => text(r[column]) === null)) values.push(null);
  return values;
}

/** The terms as a `--filter` (`model=org/m,tp=4`; `null` matches a missing value there). */
export function filterText(terms: readonly PartTerm[]): string {
  return terms.map((t) => `${t.column}=${t.value ?? 'null'}`).join(',');
}

/** Whether a row (of any table) is in the part the terms select. */
export function inPart(row: Row, terms: readonly PartTerm[]): boolean {
  return terms.every((t) => text(row[t.column]) === t.value);
}
