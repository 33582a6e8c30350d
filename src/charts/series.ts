import { distinct, text } from './fields.js';
import type { Row } from './types.js';

/** Configuration columns that, when they vary, tell one line (series) from another (the draft model
 * is left out: it follows the method and would make legends unreadable). */
const SERIES_KEYS = ['spec_method', 'num_spec_tokens', 'tp', 'quantization', 'engine', 'model', 'dataset'] as const;

/** Columns in SERIES_KEYS whose value differs between rows. */
export function varyingKeys(rows: readonly Row[], keys: readonly string[] = SERIES_KEYS): string[] {
  return keys.filter((k) => distinct(rows, k).length > 1 || (distinct(rows, k).length === 1 && rows.some((r) => text(r[k]) === null)));
}

/**
 * A short name for a row's configuration: its label when it has one, else the varying keys
 * (`eagle K=3`), so a legend stays readable without a user-supplied label.
 */
export function seriesName(row: Row, keys: readonly string[], column?: string): string {
  if (column) return text(row[column]) ?? '(none)';
  const label = text(row.label);
  if (label !== null) return label;
  const parts = keys.map((k) => {
    const v = text(row[k]);
    if (k === 'spec_method') return v ?? 'none';
    if (k === 'num_spec_tokens') return v === null ? '' : `K=${v}`;
    return v === null ? '' : `${k}=${v}`;
  });
  const name = parts.filter((p) => p !== '').join(' ');
  return name === '' ? 'all runs' : name;
}

/** Panel name for faceting by dataset/model: only the parts that vary, joined with ` · `. */
export function panelName(row: Row, keys: readonly string[]): string {
  const parts = keys.map((k) => text(row[k]) ?? '(unknown)');
  return parts.length === 0 ? '' : parts.join(' · ');
}
