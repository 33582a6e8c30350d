import type { FieldValue } from '../core/types.js';
import { naturalCompare } from '../core/natural-order.js';
import { metricDirection } from '../normalize/schema.js';
import type { ChartOptions, Row } from './types.js';

/** The number in a cell, or null for missing, non-finite or non-numeric values. */
export function num(v: FieldValue | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A cell as display text; null stays null. */
export function text(v: FieldValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  return Array.isArray(v) ? v.join(';') : String(v);
}

/** True when at least one row has a value in `column`. */
export function hasColumn(rows: readonly Row[], column: string): boolean {
  return rows.some((r) => r[column] !== null && r[column] !== undefined);
}

/** Sorted distinct display values of a column (nulls left out). */
export function distinct(rows: readonly Row[], column: string): string[] {
  const set = new Set<string>();
  for (const r of rows) {
    const t = text(r[column]);
    if (t !== null) set.add(t);
  }
  return [...set].sort(naturalCompare);
}

/** Whether a row matches every `column=value` pair of a filter. */
export function matchesFilter(row: Row, filter: Readonly<Record<string, string>>): boolean {
  return Object.entries(filter).every(([k, v]) => text(row[k]) === v);
}

/** Metrics where smaller is better (latencies, energy), so ratios flip: the direction compare's speedups use. */
export function lowerIsBetter(metric: string): boolean {
  return metricDirection(metric) === 'lower';
}

/** The base metric a chart uses: the option, else output throughput. */
export function metricOf(options: ChartOptions): string {
  return options.metric ?? 'output_throughput';
}

/** Unit suffixes of column names and how a title writes them (schema.md: a unit ends the name). */
const UNIT_SUFFIXES: readonly (readonly [RegExp, string])[] = [
  [/_ms$/, ' (ms)'],
  [/(?<!_per)_s$/, ' (s)'],
  [/_j$/, ' (J)'],
  [/_w$/, ' (W)'],
];
const UPPER_WORDS = new Set(['ttft', 'tpot', 'itl', 'e2el', 'kv', 'gpu']);

/** Human title for a column name: `mean_tpot_ms` → `mean TPOT (ms)`, `gpu_energy_j` → `GPU energy (J)`. */
export function columnTitle(column: string): string {
  const suffix = UNIT_SUFFIXES.find(([re]) => re.test(column));
  const name = suffix ? column.replace(suffix[0], '') : column;
  const base = name
    .split('_')
    .map((w) => (UPPER_WORDS.has(w) ? w.toUpperCase() : w))
    .join(' ');
  if (column.startsWith('request_')) return `${base} (req/s)`;
  // a throughput whose name carries no unit counts tokens (a `…_per_s` name says its own)
  const unit = suffix ? suffix[1] : column.includes('throughput') && !column.endsWith('_per_s') ? ' (tok/s)' : '';
  return `${base}${unit}`;
}
