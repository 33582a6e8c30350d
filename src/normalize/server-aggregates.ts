import type { TimelineRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import { seriesLine, seriesValue, type TimelineSeries } from '../core/timeline-series.js';
import type { SERVER_AGGREGATE_COLUMNS } from './schema.js';
import { inWindow, seriesClock, type TimeWindow } from './time-window.js';

/** The server-side columns a server's stats lines add to a run's row (schema.md §1). */
export type ServerAggregates = Partial<Record<(typeof SERVER_AGGREGATE_COLUMNS)[number], number>>;

/**
 * The stats lines of a server's log that speak for one run: those in its time window, the whole
 * log (it served that run alone, with no clock), or, in a log the run was tee'd into, those
 * between two lines that show requests running. The run's server aggregates are read from them,
 * and the timeline table gives them the run's id.
 */
export type ServedLines =
  | { readonly kind: 'window'; readonly window: TimeWindow }
  | { readonly kind: 'whole' }
  /**
   * A run printed in its server's own log (a script's output under one `tee`): the lines after
   * `after` (its previous run's block, or its server's start) and before `before` (the line after
   * its own block) that show requests running. The interval line a server prints after a run ends
   * (its tail, then an idle one) comes after the run's block, among the next run's lines, with
   * none running.
   */
  | { readonly kind: 'between'; readonly after: number; readonly before: number };

/** The lines of the log in `file` that speak for the run `runId` (the timeline table's run_id). */
export interface RunServedLines {
  readonly file: string;
  readonly runId: string;
  readonly served: ServedLines;
}

/** Which entries of a series count: those in [from, to) that `counts` takes. */
interface Selection {
  readonly from: number;
  readonly to: number;
  readonly counts: (i: number) => boolean;
}

/**
 * The lines of a linked log that speak for a run. Rule: with a run window and timed stats lines,
 * only the lines inside the window; without a window, the whole log only when the log serves
 * exactly this one run (`soleRun`); otherwise none (a log shared by several runs with no clock
 * would mix their loads).
 */
export function servedLines(window: TimeWindow | null, soleRun: boolean): ServedLines | null {
  return window ? { kind: 'window', window } : soleRun ? { kind: 'whole' } : null;
}

/** The entries of a series that `served` takes. */
export function servedEntries(series: TimelineSeries, served: ServedLines): Selection {
  if (served.kind === 'whole') return { from: 0, to: series.length, counts: () => true };
  if (served.kind === 'between') {
    // found by line, not looked for: a sweep tee'd into one log has tens of thousands of runs and of lines
    return { from: firstAfter(series, served.after), to: firstAfter(series, served.before - 1), counts: (i) => seriesValue(series, 'running', i) !== 0 };
  }
  const clock = seriesClock(series);
  const { window } = served;
  const counts = (i: number) => {
    const ms = clock.ms[i] as number;
    return !Number.isNaN(ms) && inWindow(window, { ms, hasYear: clock.hasYear[i] === 1 });
  };
  return { from: 0, to: series.length, counts };
}

/** The first entry of a series (in line order) after `line`. */
function firstAfter(series: TimelineSeries, line: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seriesLine(series, mid) <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The server aggregates of the lines of `timeline` that `served` takes. */
export function serverAggregates(timeline: readonly TimelineRecord[], served: ServedLines): ServerAggregates {
  const gen = new Tally();
  const kv = new Max();
  const running = new Max();
  const waiting = new Max();
  const preemptions = new Tally();
  for (const { series } of timeline) {
    const { from, to, counts } = servedEntries(series, served);
    for (let i = from; i < to; i++) {
      if (!counts(i)) continue;
      gen.add(seriesValue(series, 'gen_throughput', i));
      kv.add(seriesValue(series, 'kv_cache_usage', i));
      running.add(seriesValue(series, 'running', i));
      waiting.add(seriesValue(series, 'waiting', i));
      preemptions.add(seriesValue(series, 'preemptions', i));
    }
  }
  const out: ServerAggregates = {};
  if (gen.n > 0) out.server_gen_throughput_mean = round(gen.sum / gen.n);
  if (kv.value !== null) out.server_kv_cache_usage_max = kv.value;
  if (running.value !== null) out.server_running_max = running.value;
  if (waiting.value !== null) out.server_waiting_max = waiting.value;
  // vLLM V1 prints `Preemptions` in an interval, SGLang a retraction, only when there were some: a
  // run none of whose lines say any has none here, not 0 (an older vLLM prints no count at all)
  if (preemptions.n > 0) out.server_preemptions = preemptions.sum;
  return out;
}

/** A finite number, or null. */
function finite(v: FieldValue | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The sum and count of the finite values added (a mean or a total). */
class Tally {
  sum = 0;
  n = 0;
  add(v: FieldValue | undefined): void {
    const x = finite(v);
    if (x === null) return;
    this.sum += x;
    this.n++;
  }
}

class Max {
  value: number | null = null;
  add(v: FieldValue | undefined): void {
    const x = finite(v);
    if (x !== null && (this.value === null || x > this.value)) this.value = x;
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
