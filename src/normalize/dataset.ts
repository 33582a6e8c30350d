import type { FieldMapBuilder } from '../core/records.js';

const KNOWN = ['sharegpt', 'random', 'sonnet', 'burstgpt', 'instructcoder', 'mt-bench', 'mt_bench', 'gsm8k', 'humaneval', 'spec_bench', 'custom', 'prefix_repetition'];

/**
 * One `dataset` value from the many ways a benchmark names it: `dataset_name='hf'` +
 * `dataset_path='likaixin/InstructCoder'` → `hf:likaixin/InstructCoder`; a ShareGPT JSON path →
 * `sharegpt`; otherwise the name as given.
 */
export function canonicalDataset(name: string | null, path: string | null): string | null {
  // 2023 scripts passed the file itself as `dataset=...json`
  if (name && /[/\\]|\.jsonl?$/i.test(name)) return canonicalDataset(null, name);
  const n = name?.trim().toLowerCase() ?? null;
  if (n === 'hf' && path) return `hf:${path}`;
  if (n && n !== 'custom') return n;
  if (path) {
    const lower = path.toLowerCase();
    const known = KNOWN.find((k) => lower.includes(k));
    if (known) return known;
    return path.split('/').at(-1) ?? path;
  }
  return n;
}

/** Replaces raw dataset flags in a builder by the canonical `dataset` column. */
export function settleDataset(builder: FieldMapBuilder): void {
  const name = builder.fields.dataset;
  const path = builder.fields.dataset_path;
  const canonical = canonicalDataset(typeof name === 'string' ? name : null, typeof path === 'string' ? path : null);
  if (canonical === null) return;
  const line = builder.lines.dataset ?? builder.lines.dataset_path ?? 0;
  delete builder.fields.dataset;
  delete builder.lines.dataset;
  builder.set('dataset', canonical, line);
}
