import type { FieldValue } from '../core/types.js';
import { keyOf, sameValue } from '../normalize/config-layers.js';
import type { RowFilter } from './filter.js';

type Row = Readonly<Record<string, FieldValue>>;

/** Columns that differ between candidate and baseline by design: never matched on. */
export const TREATMENT_COLUMNS: readonly string[] = ['spec_method', 'num_spec_tokens', 'draft_model', 'spec_num_steps', 'spec_eagle_topk', 'spec_num_draft_tokens', 'label'];

/** The load axis: a baseline missing only these is "no baseline at this load", not a different configuration. */
export const LOAD_COLUMNS: readonly string[] = ['max_concurrency', 'request_rate', 'num_prompts', 'batch_size'];

/**
 * Default match keys (schema.md §3): configuration columns whose value varies in the data (a
 * missing value counts as a value), minus the treatment columns: those named in the baseline
 * filter, the speculative-decoding knobs and `speculative_*` flags, and `label`.
 */
export function defaultMatchKeys(rows: readonly Row[], configColumns: readonly string[], filter: RowFilter): string[] {
  const treatment = new Set([...TREATMENT_COLUMNS, ...filter.terms.map((t) => t.column)]);
  return configColumns.filter((c) => {
    if (treatment.has(c) || c.startsWith('speculative_')) return false;
    return new Set(rows.map((r) => keyOf(r[c]))).size > 1;
  });
}

/** The keys on which two rows differ (model ids compare equal to a path ending in them). */
export function differingKeys(a: Row, b: Row, keys: readonly string[]): string[] {
  return keys.filter((k) => {
    const va = a[k] ?? null;
    const vb = b[k] ?? null;
    if (va === null || vb === null) return va !== vb;
    return !sameValue(k, va, vb);
  });
}

/** A configuration's identity: every configuration column plus the label. */
export function configKey(row: Row, configColumns: readonly string[]): string {
  return [...configColumns, 'label'].map((c) => keyOf(row[c])).join('\u0001');
}
