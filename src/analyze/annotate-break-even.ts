import { loadAxis } from './load-axis.js';
import type { FieldValue } from '../core/types.js';
import { keyOf } from '../normalize/config-layers.js';
import { BREAK_EVEN_FIELDS, type BreakEvenOptions, breakEven } from './summary-break-even.js';
import type { Row } from './summary-groups.js';

/**
 * Adds the break-even load and `break_even_verdict` to each comparison row, from the break-even
 * of its configuration (its method across loads), so a plain `compare --format json` already
 * says where each method stops paying. The load column is named for the axis it is on:
 * `break_even_concurrency`, `break_even_request_rate`, `break_even_batch_size` (breakEvenColumn).
 */
export function annotateBreakEven(rows: readonly Row[], options: BreakEvenOptions = {}): Record<string, FieldValue>[] {
  const axis = options.axis ?? loadAxis(rows);
  const evens = breakEven(rows, { ...options, axis });
  // the columns that named each configuration there (the same for all)
  const identity = Object.keys(evens[0] ?? {}).filter((c) => !BREAK_EVEN_FIELDS.includes(c));
  const key = (r: Row): string => identity.map((c) => keyOf(r[c])).join('\u0001');
  const found = new Map(evens.map((b) => [key(b), b]));
  const column = breakEvenColumn(axis);
  return rows.map((r) => {
    const b = r.pair_status === 'failed-configuration' ? undefined : found.get(key(r));
    return { ...r, [column]: b?.break_even ?? null, break_even_verdict: b?.verdict ?? null };
  });
}

/** The comparison's break-even column for a load axis: a batch size is not a concurrency. */
function breakEvenColumn(axis: string): string {
  return `break_even_${axis === 'max_concurrency' ? 'concurrency' : axis}`;
}
