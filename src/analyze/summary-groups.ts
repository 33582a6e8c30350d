import type { FieldValue } from '../core/types.js';
import { keyOf } from '../normalize/config-layers.js';
import { ownCell } from '../core/cells.js';
import { CONFIG_COLUMNS } from '../normalize/schema.js';
import { median } from './bootstrap.js';

export type Row = Readonly<Record<string, FieldValue>>;

/** Columns that name "a configuration" in summaries (the load axis excluded). */
export const CONFIG_IDENTITY: readonly string[] = ['label', 'engine', 'model', 'spec_method', 'num_spec_tokens', 'draft_model', 'tp', 'pp', 'quantization', 'dataset'];

/**
 * The columns that tell configurations apart among `rows` along `axis`: CONFIG_IDENTITY and every
 * other configuration column whose value differs between them (the workload's lengths, a swept
 * server flag), as compare matches on them: a curve along the load never joins two workloads.
 * `configColumns` are the runs table's (buildRuns: the canonical ones, a server log's or
 * manifest's flags, `multi_turn`); the axis and `num_prompts` (which sweeps scale with the load)
 * are left out.
 */
export function identityColumns(rows: readonly Row[], axis: string, configColumns: readonly string[] = CONFIG_COLUMNS): string[] {
  const varying = configColumns.filter((c) => !CONFIG_IDENTITY.includes(c) && new Set(rows.map((r) => keyOf(r[c]))).size > 1 && !repeatsAxis(rows, c, axis));
  return [...CONFIG_IDENTITY, ...varying].filter((c) => c !== axis && c !== 'num_prompts');
}

/**
 * A column that only repeats the load: every row that has it holds the axis's own value there (a
 * batch benchmark starts its server with `--max-running-requests` set to the batch: `max_num_seqs`
 * is the concurrency). It tells no configurations apart, and as identity it would cut a curve into
 * points.
 */
function repeatsAxis(rows: readonly Row[], column: string, axis: string): boolean {
  let seen = false;
  for (const r of rows) {
    const v = r[column];
    if (v === null || v === undefined) continue;
    if (v !== r[axis]) return false;
    seen = true;
  }
  return seen;
}

/** Groups rows by the given columns, keeping first-seen order; returns [identity, rows] pairs. */
export function groupRows(rows: readonly Row[], columns: readonly string[]): { identity: Record<string, FieldValue>; rows: Row[] }[] {
  const groups = new Map<string, { identity: Record<string, FieldValue>; rows: Row[] }>();
  for (const r of rows) {
    const key = columns.map((c) => keyOf(r[c])).join('\u0001');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { identity: Object.fromEntries(columns.map((c) => [c, ownCell(r, c) ?? null])), rows: [] }));
    g.rows.push(r);
  }
  return [...groups.values()];
}

/** A finite number or null. */
export function num(v: FieldValue | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The median of a column over the rows with a number in it (repeats of one point), or null when none has. */
export function medianOf(rows: readonly Row[], column: string): number | null {
  const values = rows.flatMap((r) => {
    const v = num(r[column]);
    return v === null ? [] : [v];
  });
  return values.length === 0 ? null : median(values);
}

/** Rounds for display tables (6 decimals keeps ratios exact enough to check by hand). */
export function round(x: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Comparison rows that carry a speedup claim for a metric. */
export function claimed(rows: readonly Row[], metric: string): Row[] {
  return rows.filter((r) => r.pair_status === 'ok' && num(r[`speedup_${metric}`]) !== null);
}
