import type { FieldValue } from '../core/types.js';
import { claimed, groupRows, num, type Row } from './summary-groups.js';

export interface SummaryOptions {
  /** Metric whose speedup is summarized; default `output_throughput`. */
  readonly metric?: string;
  /** The runs table's configuration columns (identityColumns), when a summary names configurations by them. */
  readonly configColumns?: readonly string[];
}

/**
 * Best speedup per method and dataset, with the configuration that reached it.
 * Input: `compareRuns` rows. Output columns: spec_method, dataset, metric, best_speedup, label,
 * num_spec_tokens, draft_model, model, tp, max_concurrency, request_rate, run_id.
 */
export function bestSpeedups(rows: readonly Row[], options: SummaryOptions = {}): Record<string, FieldValue>[] {
  const metric = options.metric ?? 'output_throughput';
  const col = `speedup_${metric}`;
  return groupRows(claimed(rows, metric), ['spec_method', 'dataset']).map(({ identity, rows: g }) => {
    const best = [...g].sort((a, b) => (num(b[col]) ?? 0) - (num(a[col]) ?? 0))[0] as Row;
    return {
      ...identity,
      metric,
      best_speedup: best[col] ?? null,
      label: best.label ?? null,
      num_spec_tokens: best.num_spec_tokens ?? null,
      draft_model: best.draft_model ?? null,
      model: best.model ?? null,
      tp: best.tp ?? null,
      max_concurrency: best.max_concurrency ?? null,
      request_rate: best.request_rate ?? null,
      run_id: best.run_id ?? null,
    };
  });
}
