/**
 * The timeline table's `run_id` (schema.md §2): a stats line is a run's when it is one of the
 * lines that run's server aggregates were read from (server-aggregates.ts: its window in a linked
 * log, a log that served it alone, or its stretch of a log it was tee'd into). A line two runs
 * would claim (benchmarks run at once against one server) is neither's.
 */
import type { TimelineSeries } from '../core/timeline-series.js';
import { type RunServedLines, servedEntries } from './server-aggregates.js';

const NONE = -1;
const SEVERAL = -2;

/** The run id of entry `entry` of a file's series, or null. */
export type RunIdOf = (file: string, series: TimelineSeries, entry: number) => string | null;

/** Looks up each line's run, working out a series' lines once, when first asked. */
export function timelineRunIds(served: readonly RunServedLines[]): RunIdOf {
  const byFile = new Map<string, RunServedLines[]>();
  for (const s of served) {
    const list = byFile.get(s.file);
    if (list) list.push(s);
    else byFile.set(s.file, [s]);
  }
  const owners = new WeakMap<TimelineSeries, Int32Array>();
  return (file, series, entry) => {
    const runs = byFile.get(file);
    if (!runs) return null;
    let owner = owners.get(series);
    if (!owner) owners.set(series, (owner = ownersOf(series, runs)));
    const k = owner[entry] as number;
    return k >= 0 ? (runs[k] as RunServedLines).runId : null;
  };
}

function ownersOf(series: TimelineSeries, runs: readonly RunServedLines[]): Int32Array {
  const owner = new Int32Array(series.length).fill(NONE);
  runs.forEach((run, k) => {
    const { from, to, counts } = servedEntries(series, run.served);
    // one run told of one line twice is still its one owner
    for (let i = from; i < to; i++) if (counts(i)) owner[i] = owner[i] === NONE || (runs[owner[i] as number] as RunServedLines | undefined)?.runId === run.runId ? k : SEVERAL;
  });
  return owner;
}
