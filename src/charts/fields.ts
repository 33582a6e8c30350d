import type { FieldValue } from '../core/types.js';
import { naturalCompare } from '../core/natural-order.js';
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

/** Metrics where smaller is better (latencies), so ratios flip. */
export function lowerIsBetter(metric: string): boolean {
  return metric.endsWith('_ms') || metric.endsWith('_s');
}

/** The base metric a chart uses: the option, else output throughput. */
export function metricOf(options: ChartOptions): string {
  return options.metric ?? 'output_throughput';
}

/** Human title for a column name: `mean_tpot_ms` → `mean TPOT (ms)`. */
export function columnTitle(column: string): string {
  const unit = column.endsWith('_ms') ? ' (ms)' : column.endsWith('_s') ? ' (s)' : column.includes('throughput') ? ' (tok/s)' : '';
  const base = column
    .replace(/_(ms|s)$/, '')
    .split('_')
    .map((w) => (['ttft', 'tpot', 'itl', 'e2el', 'kv', 'gpu'].includes(w) ? w.toUpperCase() : w))
    .join(' ');
  if (column.startsWith('request_')) return `${base} (req/s)`;
  return `${base}${unit}`;
}
