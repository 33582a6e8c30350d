import { loadAxis } from './load-axis.js';
import type { FieldValue } from '../core/types.js';
import type { SummaryOptions } from './summary-best.js';
import { claimed, groupRows, identityColumns, num, round, type Row } from './summary-groups.js';

export interface BreakEvenOptions extends SummaryOptions {
  /** The load column, default loadAxis's (must be > 0: interpolation is on log2). */
  readonly axis?: string;
}

/** The columns breakEven adds after a configuration's identity columns. */
export const BREAK_EVEN_FIELDS: readonly string[] = ['metric', 'axis', 'points', 'verdict', 'break_even'];

/**
 * Where each method's speedup crosses 1 along the load axis, interpolated linearly on log2 of the
 * axis between the two points around the first crossing. `verdict` is `falls below 1`,
 * `rises above 1`, `always above 1` or `never above 1`; `break_even` is null unless it crossed.
 * A configuration is named by identityColumns: its method, and every configuration column that varies.
 */
export function breakEven(rows: readonly Row[], options: BreakEvenOptions = {}): Record<string, FieldValue>[] {
  const metric = options.metric ?? 'output_throughput';
  const axis = options.axis ?? loadAxis(rows);
  const col = `speedup_${metric}`;
  const usable = claimed(rows, metric).filter((r) => (num(r[axis]) ?? 0) > 0);
  return groupRows(usable, identityColumns(usable, axis, options.configColumns)).map(({ identity, rows: g }) => {
    const points = g.map((r) => ({ x: num(r[axis]) as number, s: num(r[col]) as number })).sort((a, b) => a.x - b.x);
    return { ...identity, metric, axis, points: points.length, ...crossing(points) };
  });
}

/** The first crossing of 1 in points sorted by x; exported for tests. */
export function crossing(points: readonly { x: number; s: number }[]): { verdict: string; break_even: number | null } {
  if (points.length === 0) return { verdict: 'no data', break_even: null };
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i] as { x: number; s: number };
    const b = points[i + 1] as { x: number; s: number };
    if ((a.s > 1 && b.s <= 1) || (a.s <= 1 && b.s > 1)) {
      const la = Math.log2(a.x);
      const lb = Math.log2(b.x);
      const t = b.s === a.s ? 0 : (1 - a.s) / (b.s - a.s);
      return { verdict: a.s > 1 ? 'falls below 1' : 'rises above 1', break_even: round(2 ** (la + t * (lb - la)), 3) };
    }
  }
  return { verdict: points.every((p) => p.s > 1) ? 'always above 1' : 'never above 1', break_even: null };
}
