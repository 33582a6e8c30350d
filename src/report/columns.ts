import { hasColumn } from '../charts/fields.js';
import type { Row } from '../charts/types.js';
import { setCell } from '../core/cells.js';

/** Run columns a reader scans first; the CSV in tables/ keeps every column. */
export const RUN_COLUMNS = [
  'label', 'engine', 'engine_version', 'model', 'spec_method', 'num_spec_tokens', 'draft_model', 'tp', 'dataset',
  'max_concurrency', 'request_rate', 'batch_size', 'completed', 'failed', 'output_throughput', 'mean_ttft_ms', 'mean_tpot_ms',
  'mean_e2el_ms', 'mean_batch_latency_ms', 'spec_acceptance_length',
] as const;

/** Comparison columns shown in the page and in summary.md, for the report's headline metric. */
export function comparisonColumns(metric: string): string[] {
  return [
    'label', 'model', 'dataset', 'tp', 'spec_method', 'num_spec_tokens', 'max_concurrency', 'batch_size', 'pair_status',
    metric, `baseline_${metric}`, `speedup_${metric}`, `speedup_${metric}_ci_low`, `speedup_${metric}_ci_high`,
    'speedup_mean_tpot_ms', 'speedup_mean_ttft_ms',
  ];
}

/** The preferred columns that hold at least one value. */
export function presentColumns(rows: readonly Row[], preferred: readonly string[]): string[] {
  return preferred.filter((c) => hasColumn(rows, c));
}

/** Rows cut down to `source` (file:line) plus the given columns, numbers rounded for reading. */
export function displayRows(rows: readonly Row[], columns: readonly string[]): Record<string, string | number | null>[] {
  return rows.map((r) => {
    const out: Record<string, string | number | null> = { source: `${String(r.source_file)}:${String(r.source_line)}` };
    for (const c of columns) {
      setCell(out, c, cellValue(r[c]));
    }
    return out;
  });
}

/** Rows of any table as display cells (all their columns, numbers rounded for reading). */
export function plainRows(rows: readonly Row[]): { columns: string[]; rows: Record<string, string | number | null>[] } {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const out = rows.map((r) => Object.fromEntries(columns.map((c) => [c, cellValue(r[c])])));
  return { columns, rows: out };
}

function cellValue(v: Row[string]): string | number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return round(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  return v.join(';');
}

function round(v: number): number {
  if (!Number.isFinite(v)) return v;
  return Math.abs(v) >= 100 ? Math.round(v * 100) / 100 : Math.round(v * 10000) / 10000;
}
