import type { FieldValue } from '../core/types.js';
import type { SummaryOptions } from './summary-best.js';
import { claimed, groupRows, num, type Row } from './summary-groups.js';

/**
 * The best `num_spec_tokens` per method, dataset and concurrency: which K to run at each load.
 * Output: spec_method, dataset, max_concurrency, metric, best_num_spec_tokens, best_speedup,
 * tried (the K values compared, ascending, `;`-joined).
 */
export function bestSpecTokens(rows: readonly Row[], options: SummaryOptions = {}): Record<string, FieldValue>[] {
  const metric = options.metric ?? 'output_throughput';
  const col = `speedup_${metric}`;
  const withK = claimed(rows, metric).filter((r) => num(r.num_spec_tokens) !== null);
  return groupRows(withK, ['spec_method', 'dataset', 'max_concurrency']).map(({ identity, rows: g }) => {
    const best = [...g].sort((a, b) => (num(b[col]) ?? 0) - (num(a[col]) ?? 0))[0] as Row;
    const tried = [...new Set(g.map((r) => num(r.num_spec_tokens) as number))].sort((a, b) => a - b);
    return { ...identity, metric, best_num_spec_tokens: best.num_spec_tokens ?? null, best_speedup: best[col] ?? null, tried: tried.join(';') };
  });
}
