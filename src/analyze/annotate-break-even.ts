import { loadAxis } from './load-axis.js';
import type { FieldValue } from '../core/types.js';
import { keyOf } from '../normalize/config-layers.js';
import { type BreakEvenOptions, breakEven } from './summary-break-even.js';
import { CONFIG_IDENTITY, type Row } from './summary-groups.js';

/**
 * Adds `break_even_concurrency` and `break_even_verdict` to each comparison row, from the
 * break-even of its configuration (its method across loads), so a plain `compare --format json`
 * already says where each method stops paying.
 */
export function annotateBreakEven(rows: readonly Row[], options: BreakEvenOptions = {}): Record<string, FieldValue>[] {
  const axis = options.axis ?? loadAxis(rows);
  const identity = CONFIG_IDENTITY.filter((c) => c !== axis);
  const key = (r: Row): string => identity.map((c) => keyOf(r[c])).join('\u0001');
  const found = new Map(breakEven(rows, { ...options, axis }).map((b) => [key(b), b]));
  return rows.map((r) => {
    const b = r.pair_status === 'failed-configuration' ? undefined : found.get(key(r));
    return { ...r, break_even_concurrency: b?.break_even ?? null, break_even_verdict: b?.verdict ?? null };
  });
}
