import { loadAxis } from './load-axis.js';
import type { FieldValue } from '../core/types.js';
import type { SummaryOptions } from './summary-best.js';
import { claimed, groupRows, num, round, type Row } from './summary-groups.js';
import { orientedRatio } from './speedup.js';

export interface LadderOptions extends SummaryOptions {
  /** Step labels in ladder order; default: ascending mean speedup over the load points. */
  readonly order?: readonly string[];
  readonly axis?: string;
}

/**
 * Optimization ladder of labelled configurations, per load point: each step's metric, its gain
 * over the baseline and over the previous step, in % (oriented: + is better). The first step's
 * previous step is the baseline.
 */
export function optimizationLadder(rows: readonly Row[], options: LadderOptions = {}): Record<string, FieldValue>[] {
  const metric = options.metric ?? 'output_throughput';
  const axis = options.axis ?? loadAxis(rows);
  const col = `speedup_${metric}`;
  const labelled = claimed(rows, metric).filter((r) => typeof r.label === 'string' && r.label !== '');
  const order = options.order ?? defaultOrder(labelled, col);
  const out: Record<string, FieldValue>[] = [];
  for (const { identity, rows: g } of groupRows(labelled, [axis])) {
    const steps = order.map((l) => g.find((r) => r.label === l)).filter((r): r is Row => r !== undefined);
    let previous = num(steps[0]?.[`baseline_${metric}`]);
    steps.forEach((r, i) => {
      const value = num(r[metric]);
      const vsPrev = value !== null && previous !== null ? orientedRatio(metric, value, previous) : null;
      const s = num(r[col]);
      out.push({
        ...identity,
        step: i + 1,
        label: r.label ?? null,
        metric,
        value,
        vs_baseline_pct: s === null ? null : round((s - 1) * 100, 2),
        vs_previous_pct: vsPrev === null ? null : round((vsPrev - 1) * 100, 2),
      });
      previous = value;
    });
  }
  return out;
}

function defaultOrder(rows: readonly Row[], col: string): string[] {
  return groupRows(rows, ['label'])
    .map(({ identity, rows: g }) => ({ label: String(identity.label), mean: g.reduce((a, r) => a + (num(r[col]) ?? 0), 0) / g.length }))
    .sort((a, b) => a.mean - b.mean || (a.label < b.label ? -1 : 1))
    .map((x) => x.label);
}
