/**
 * The clock offset that would put runs on another clock than the server logs beside them
 * (`link/off-clock`) onto those logs' stats: offered in the warning, never applied. A server up
 * for hours fits many offsets by its span alone, so an offset fits only when every such run
 * (the first MAX_RUNS of them) falls on stats lines that show requests running, and none more
 * than the run's concurrency allows; named only when one offset, of the quarter hours time zones
 * keep, fits them all. Not looked for in logs of more than MAX_LINES stats lines together.
 */
import { seriesValue } from '../core/timeline-series.js';
import type { ConfigSource } from './server-sources.js';
import { onWindowClock, seriesClock, type TimeWindow } from './time-window.js';

/** A run that no log beside it has stats for at its time. */
export interface OffClockRun {
  /** Its window, on the logs' clock as far as the user's offset goes. */
  readonly window: TimeWindow;
  /** Its `max_concurrency`, when it has one: it never has more requests running. */
  readonly concurrency: number | null;
}

const STEP_MS = 15 * 60_000;
const MAX_OFFSET_MS = 14 * 60 * 60_000;
/** Runs looked at: enough to tell offsets apart, few enough that a folder of thousands costs little. */
const MAX_RUNS = 8;
/** Stats lines looked through for a run, at most (a week of a busy server's log is a few hundred thousand). */
const MAX_LINES = 250_000;

/** The one offset (ms, the run's clock ahead of the logs') that fits every run; null when none or several do, or the logs are too long to look through. */
export function offsetHint(runs: readonly OffClockRun[], logs: readonly ConfigSource[]): number | null {
  if (logs.reduce((n, log) => n + stampedLines(log).ms.length, 0) > MAX_LINES) return null;
  let fitting: number[] | null = null;
  for (const run of runs.slice(0, MAX_RUNS)) {
    const near = statsNear(run.window, logs);
    const fits = OFFSETS.filter((offset) => (fitting === null || fitting.includes(offset)) && fitsAt(run, near, offset));
    fitting = fits;
    if (fitting.length === 0) return null;
  }
  return fitting?.length === 1 ? (fitting[0] as number) : null;
}

/** The offsets looked at: every quarter hour either way up to 14 h, nearest first. */
const OFFSETS: readonly number[] = Array.from({ length: MAX_OFFSET_MS / STEP_MS }, (_, i) => (i + 1) * STEP_MS).flatMap((ms) => [ms, -ms]);

/** A stats line as the hint reads it: its time on the run's clock and the requests running. */
interface Busy {
  readonly ms: number;
  readonly running: number;
}

/** A log's stats lines that have a time and a running count: their instants and counts. */
interface StampedLines {
  readonly ms: Float64Array;
  readonly hasYear: Uint8Array;
  readonly running: Float64Array;
}

const STAMPED = new WeakMap<ConfigSource, StampedLines>();

/** A log's stamped lines, read once (the runs of a folder, and of its other folders, ask again). */
function stampedLines(log: ConfigSource): StampedLines {
  let lines = STAMPED.get(log);
  if (lines) return lines;
  const ms: number[] = [];
  const hasYear: number[] = [];
  const running: number[] = [];
  for (const { series } of log.timeline) {
    const clock = seriesClock(series);
    for (let i = 0; i < series.length; i++) {
      const r = seriesValue(series, 'running', i);
      if (Number.isNaN(clock.ms[i] as number) || typeof r !== 'number') continue;
      ms.push(clock.ms[i] as number);
      hasYear.push(clock.hasYear[i] as number);
      running.push(r);
    }
  }
  lines = { ms: Float64Array.from(ms), hasYear: Uint8Array.from(hasYear), running: Float64Array.from(running) };
  STAMPED.set(log, lines);
  return lines;
}

/** The logs' stamped lines within the farthest offset of the run, on its clock, in time order. */
function statsNear(window: TimeWindow, logs: readonly ConfigSource[]): Busy[] {
  const out: Busy[] = [];
  const from = window.start - MAX_OFFSET_MS;
  const to = window.end + MAX_OFFSET_MS;
  for (const log of logs) {
    const lines = stampedLines(log);
    for (let i = 0; i < lines.ms.length; i++) {
      const ms = onWindowClock(window, { ms: lines.ms[i] as number, hasYear: lines.hasYear[i] === 1 });
      if (ms >= from && ms <= to) out.push({ ms, running: lines.running[i] as number });
    }
  }
  return out.sort((a, b) => a.ms - b.ms);
}

/** Whether the run read `offset` earlier falls on busy lines (`near`, in time order), none busier than its concurrency. */
function fitsAt(run: OffClockRun, near: readonly Busy[], offset: number): boolean {
  const start = run.window.start - offset;
  const end = run.window.end - offset;
  let busy = false;
  for (let k = firstFrom(near, start); k < near.length && (near[k] as Busy).ms <= end; k++) {
    const { running } = near[k] as Busy;
    if (run.concurrency !== null && running > run.concurrency) return false;
    if (running > 0) busy = true;
  }
  return busy;
}

/** The first line at or after `ms`. */
function firstFrom(near: readonly Busy[], ms: number): number {
  let lo = 0;
  let hi = near.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((near[mid] as Busy).ms < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
