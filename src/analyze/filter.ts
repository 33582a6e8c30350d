import { UsageError } from '../core/errors.js';
import type { FieldValue } from '../core/types.js';
import { keyOf } from '../normalize/config-layers.js';
import { ownCell } from '../core/cells.js';

/** A parsed `column=value[,column=value]` filter (schema.md §4). */
export interface RowFilter {
  readonly text: string;
  readonly terms: readonly { readonly column: string; readonly value: string }[];
}

/** Parses `spec_method=none,tp=8`; a malformed term is a usage error. */
export function parseFilter(text: string): RowFilter {
  const terms = text.split(',').map((t) => t.trim()).filter((t) => t.length > 0).map((t) => {
    const i = t.indexOf('=');
    if (i <= 0) throw new UsageError(`filter term ${JSON.stringify(t)} is not column=value`);
    return { column: t.slice(0, i).trim(), value: t.slice(i + 1).trim() };
  });
  if (terms.length === 0) throw new UsageError(`empty filter ${JSON.stringify(text)}`);
  return { text, terms };
}

/**
 * Whether a row passes a filter. Values compare as strings and as numbers (`8` = 8, `inf` =
 * Infinity); `none` and `null` also match a missing value, except for `spec_method` where `none`
 * is a real value.
 */
export function matchesFilter(row: Readonly<Record<string, FieldValue>>, filter: RowFilter): boolean {
  return filter.terms.every(({ column, value }) => {
    const v = ownCell(row, column) ?? null;
    if (v === null) return value === 'null' || (value === 'none' && column !== 'spec_method');
    return keyOf(v) === keyOf(value) || String(v).toLowerCase() === value.toLowerCase();
  });
}
