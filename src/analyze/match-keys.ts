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

/** Keys on which a model id also matches a path ending in it (sameValue); the others compare by keyOf alone. */
const PATH_LIKE = new Set(['model', 'draft_model']);

/**
 * For a row, the `rows` that differ from it on none of `keys` (differingKeys), in their order.
 * They are looked up by their values of the keys compared by value alone, and only then compared on
 * the model keys: comparing every configuration with every baseline took most of a minute for a
 * campaign of ten thousand configurations.
 */
export function matchingRows(rows: readonly Row[], keys: readonly string[]): (row: Row) => Row[] {
  const exact = keys.filter((k) => !PATH_LIKE.has(k));
  const loose = keys.filter((k) => PATH_LIKE.has(k));
  const buckets = new Map<string, Row[]>();
  for (const r of rows) {
    const key = exactKey(r, exact);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(r);
    else buckets.set(key, [r]);
  }
  return (row) => (buckets.get(exactKey(row, exact)) ?? []).filter((b) => differingKeys(row, b, loose).length === 0);
}

/** Equal for two rows exactly when differingKeys finds none of `keys` (none of them a PATH_LIKE key). */
function exactKey(row: Row, keys: readonly string[]): string {
  return JSON.stringify(keys.map((k) => {
    const v = row[k] ?? null;
    return v === null ? null : keyOf(v);
  }));
}

/** A configuration's identity: every configuration column plus the label. */
export function configKey(row: Row, configColumns: readonly string[]): string {
  return [...configColumns, 'label'].map((c) => keyOf(row[c])).join('\u0001');
}
