import type { FieldValue } from '../core/types.js';
import type { SummaryOptions } from './summary-best.js';
import { keyOf } from '../normalize/config-layers.js';
import { loadAxis } from './load-axis.js';
import { claimed, CONFIG_IDENTITY, groupRows, identityColumns, num, type Row } from './summary-groups.js';
import { TREATMENT_COLUMNS } from './match-keys.js';

export interface BestSpecTokensOptions extends SummaryOptions {
  /** The load column, default loadAxis's. */
  readonly axis?: string;
}

/**
 * What a choice of K is made within: the configuration but for K (and the label, which names K
 * when a command's flags set it), the workload, and the load (the axis column, added).
 */
const K_CHOICE_IDENTITY: readonly string[] = ['engine', 'model', 'spec_method', 'draft_model', 'tp', 'pp', 'quantization', 'dataset', 'input_len', 'output_len'];

/**
 * The best `num_spec_tokens` per configuration (K_CHOICE_IDENTITY, and the other configuration
 * columns of `options.configColumns` that vary but do not go with K) and load point: which K to
 * run at each load, never chosen across models, engines or workloads. Output: spec_method,
 * dataset, the other of those columns whose value differs between rows, the load axis's (loadAxis,
 * unless given), metric, best_num_spec_tokens, best_speedup, tried (the K values compared, ascending, `;`-joined).
 */
export function bestSpecTokens(rows: readonly Row[], options: BestSpecTokensOptions = {}): Record<string, FieldValue>[] {
  const metric = options.metric ?? 'output_throughput';
  const col = `speedup_${metric}`;
  const axis = options.axis ?? loadAxis(rows);
  const withK = claimed(rows, metric).filter((r) => num(r.num_spec_tokens) !== null);
  // and any other configuration column that varies (a server flag, multi_turn), but those that go with K
  const others = identityColumns(withK, axis, options.configColumns).filter((c) => !CONFIG_IDENTITY.includes(c) && !K_CHOICE_IDENTITY.includes(c) && !TREATMENT_COLUMNS.includes(c) && !c.startsWith('speculative_'));
  const identity = [...K_CHOICE_IDENTITY, ...others];
  const groups = groupRows(withK, [...identity, axis]);
  // the columns that tell the groups apart, and the method, dataset and load always
  const shown = [...identity, axis].filter((c) => c === 'spec_method' || c === 'dataset' || c === axis || new Set(groups.map((g) => keyOf(g.identity[c]))).size > 1);
  return groups.map(({ identity, rows: g }) => {
    const best = [...g].sort((a, b) => (num(b[col]) ?? 0) - (num(a[col]) ?? 0))[0] as Row;
    const tried = [...new Set(g.map((r) => num(r.num_spec_tokens) as number))].sort((a, b) => a - b);
    const columns = Object.fromEntries(shown.map((c) => [c, identity[c] ?? null]));
    return { ...columns, metric, best_num_spec_tokens: best.num_spec_tokens ?? null, best_speedup: best[col] ?? null, tried: tried.join(';') };
  });
}
