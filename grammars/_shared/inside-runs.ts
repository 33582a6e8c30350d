import { type BenchRecord, runLastLine } from '../../src/core/records.js';

/** The lines of `skipped` among a run's lines (between the first and the last its values came from). */
export function insideRuns(skipped: readonly number[], records: readonly BenchRecord[]): number[] {
  const runs = records.flatMap((r) => (r.kind === 'run' ? [{ first: Math.min(r.at.line, ...Object.values(r.lines)), last: runLastLine(r) }] : []));
  return skipped.filter((n) => runs.some((r) => n > r.first && n < r.last));
}
