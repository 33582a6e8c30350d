import type { FieldValue } from '../core/types.js';

type Row = Readonly<Record<string, FieldValue | undefined>>;

/** The columns a sweep steps along, in order of preference. */
const LOAD_AXES = ['max_concurrency', 'request_rate', 'batch_size'] as const;

/**
 * The load axis of a set of runs: `max_concurrency` when they take two or more of its values
 * (finite and above 0: the axis is drawn and interpolated on log2), else `request_rate` when they
 * do, else `batch_size` when they do (static-batch latency benchmarks: `vllm bench latency`), else
 * `max_concurrency`. A sweep of request rates with no concurrency cap (`--request-rate 1 2 4 8`)
 * is drawn and summarized along its rates, not left out for want of a concurrency.
 */
export function loadAxis(rows: readonly Row[]): string {
  for (const axis of LOAD_AXES) {
    const values = new Set<number>();
    for (const r of rows) {
      const v = r[axis];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0) values.add(v);
      if (values.size >= 2) return axis;
    }
  }
  return LOAD_AXES[0];
}

/** The load axis in words, for titles: `concurrency`, `request rate`. */
export function loadAxisName(axis: string): string {
  return axis === 'max_concurrency' ? 'concurrency' : axis.replaceAll('_', ' ');
}
