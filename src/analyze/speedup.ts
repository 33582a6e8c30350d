import type { FieldValue } from '../core/types.js';
import { metricDirection } from '../normalize/schema.js';
import { bootstrapCI, median } from './bootstrap.js';
import { fnv1a } from '../core/fnv1a.js';

type Row = Readonly<Record<string, FieldValue>>;

/** Candidate over baseline, oriented so that > 1 means the candidate is better; null when undefined. */
export function orientedRatio(metric: string, candidate: number, baseline: number): number | null {
  return ratioOf(metric)(candidate, baseline);
}

/** orientedRatio for one metric, its direction looked up once (the bootstrap divides 2,000 times a pair). */
function ratioOf(metric: string): (candidate: number, baseline: number) => number | null {
  const lower = metricDirection(metric) === 'lower';
  return (candidate, baseline) => {
    const r = lower ? baseline / candidate : candidate / baseline;
    return Number.isFinite(r) && r > 0 ? r : null;
  };
}

/**
 * The columns of one metric for a pair of run groups: the medians, `speedup_<m>` and its bootstrap
 * 95% interval (`_ci_low`, `_ci_high`; null for a single run on each side). The RNG is seeded from
 * the run ids and the metric, so the interval is the same on every invocation.
 */
export function metricPair(metric: string, candidates: readonly Row[], baselines: readonly Row[], claim: boolean): Record<string, FieldValue> {
  const a = values(candidates, metric);
  const b = values(baselines, metric);
  const out: Record<string, FieldValue> = {
    [metric]: a.length > 0 ? round(median(a)) : null,
    [`baseline_${metric}`]: b.length > 0 ? round(median(b)) : null,
    [`speedup_${metric}`]: null,
    [`speedup_${metric}_ci_low`]: null,
    [`speedup_${metric}_ci_high`]: null,
  };
  if (!claim || a.length === 0 || b.length === 0) return out;
  const s = orientedRatio(metric, median(a), median(b));
  out[`speedup_${metric}`] = s === null ? null : round(s);
  // seeded from the data's identity, not from the clock
  const seed = fnv1a([...candidates, ...baselines].map((r) => String(r.run_id)).sort().join(',') + metric);
  const ratio = ratioOf(metric);
  const ci = bootstrapCI(a, b, (ma, mb) => ratio(ma, mb) ?? Number.NaN, seed);
  if (ci) {
    out[`speedup_${metric}_ci_low`] = round(ci.low);
    out[`speedup_${metric}_ci_high`] = round(ci.high);
  }
  return out;
}

function values(rows: readonly Row[], metric: string): number[] {
  return rows.map((r) => r[metric]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
