import { seriesValue, type TimelineSeries } from '../core/timeline-series.js';
import type { FieldValue } from '../core/types.js';

/** A run's wall-clock window, in ms since the epoch (UTC as written; logs carry no zone). */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
  /** False when the clock had no year (vLLM's `MM-DD HH:MM:SS`): compare only with the same kind. */
  readonly hasYear: boolean;
}

/** A parsed instant and whether its text carried a year. */
export interface Instant {
  readonly ms: number;
  readonly hasYear: boolean;
}

const ISO = /^(\d{4})-?(\d{2})-?(\d{2})[T _-]?(\d{2}):?(\d{2}):?(\d{2})(?:\.(\d+))?/;
const NO_YEAR = /^(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?/;

/** Reads `2025-11-02T10:00:20`, `20251102-100020` (result JSON `date`) and `11-02 10:00:20`. */
export function parseInstant(v: FieldValue | undefined): Instant | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  const iso = ISO.exec(t);
  if (iso) return instant(Number(iso[1]), iso.slice(2), true);
  const ny = NO_YEAR.exec(t);
  if (ny) return instant(2000, ny.slice(1), false);
  return null;
}

function instant(year: number, parts: readonly (string | undefined)[], hasYear: boolean): Instant | null {
  const [mo, d, h, mi, s] = parts.map((p) => (p === undefined ? 0 : Number(p)));
  const fracMs = parts[5] ? Number(`0.${parts[5]}`) * 1000 : 0;
  const ms = Date.UTC(year, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0) + fracMs;
  return Number.isFinite(ms) ? { ms, hasYear } : null;
}

/**
 * The window of a run, when its row says when it ran: `start_time` + `end_time`, or an end
 * stamp (`end_time` or the result JSON's `date`, written when the run finished) minus `duration_s`.
 */
export function runWindow(row: Readonly<Record<string, FieldValue>>): TimeWindow | null {
  const start = parseInstant(row.start_time);
  const end = parseInstant(row.end_time) ?? parseInstant(row.date);
  const duration = typeof row.duration_s === 'number' && Number.isFinite(row.duration_s) ? row.duration_s * 1000 : null;
  if (start && end) return { start: start.ms, end: end.ms, hasYear: start.hasYear && end.hasYear };
  if (end && duration !== null) return { start: end.ms - duration, end: end.ms, hasYear: end.hasYear };
  if (start && duration !== null) return { start: start.ms, end: start.ms + duration, hasYear: start.hasYear };
  return null;
}

/** Whether an instant lies in a window (a year-less clock is compared by month, day and time only). */
export function inWindow(w: TimeWindow, t: Instant): boolean {
  const ms = onWindowClock(w, t);
  return ms >= w.start && ms <= w.end;
}

/** An instant in ms on a window's clock: a year-less one (or a window without a year) in the window's year. */
export function onWindowClock(w: TimeWindow, t: Instant): number {
  return w.hasYear === t.hasYear ? t.ms : shiftYear(t.ms, w.start);
}

function shiftYear(ms: number, like: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(new Date(like).getUTCFullYear());
  return d.getTime();
}

/** The time of a series' entry `i`; a year the grammar inferred (`time_year_inferred`) counts as no year. */
function timelineInstant(series: TimelineSeries, i: number): Instant | null {
  const at = parseInstant(seriesValue(series, 'time', i));
  return at && seriesValue(series, 'time_year_inferred', i) === true ? { ms: at.ms, hasYear: false } : at;
}

/** Whether a log's stats span [first, last] overlaps a run window, or comes within `slackMs` of it. */
export function spanOverlaps(w: TimeWindow, first: Instant, last: Instant, slackMs = 0): boolean {
  return Math.abs(spanDistance(w, first, last)) <= slackMs;
}

/** The window moved by `ms` (a run's clock read on its server's: `--clock-offset`). */
export function shiftWindow(w: TimeWindow, ms: number): TimeWindow {
  return ms === 0 ? w : { start: w.start + ms, end: w.end + ms, hasYear: w.hasYear };
}

/**
 * How far a log's stats span [first, last] lies from a run window, in ms: negative when it ends
 * before the run starts, positive when it starts after the run ends, 0 when they overlap
 * (year-less clocks aligned as in inWindow).
 */
export function spanDistance(w: TimeWindow, first: Instant, last: Instant): number {
  const end = onWindowClock(w, last);
  if (end < w.start) return end - w.start;
  const start = onWindowClock(w, first);
  return start > w.end ? start - w.end : 0;
}

/**
 * A clock offset as `--clock-offset` takes it: `+2`, `-5:30`, `+02:00` (hours, then minutes), in
 * ms; null when it is not one (at most 26 hours either way, as time zones go).
 */
export function parseClockOffset(text: string): number | null {
  const m = /^([+-])?(\d{1,2})(?::([0-5]\d))?$/.exec(text.trim());
  if (!m) return null;
  const ms = (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000;
  return ms > 26 * 3_600_000 ? null : m[1] === '-' ? -ms : ms;
}

/**
 * How far a run may lie outside its server's stats span and still be its server's: stats lines
 * come every 10 s or so while a server works (vLLM's default), and the last run of a server often
 * ends after its last one (the server stopped before its next).
 */
export const SPAN_SLACK_MS = 60_000;

/** The instants of a series' entries: ms (NaN without a time) and whether each had a year. */
export interface SeriesClock {
  readonly ms: Float64Array;
  readonly hasYear: Uint8Array;
}

const CLOCKS = new WeakMap<TimelineSeries, SeriesClock>();

/** Every entry's instant, read once per series (each run linked to a log looks at its times). */
export function seriesClock(series: TimelineSeries): SeriesClock {
  let clock = CLOCKS.get(series);
  if (clock === undefined) {
    clock = { ms: new Float64Array(series.length), hasYear: new Uint8Array(series.length) };
    for (let i = 0; i < series.length; i++) {
      const t = timelineInstant(series, i);
      clock.ms[i] = t === null ? Number.NaN : t.ms;
      clock.hasYear[i] = t?.hasYear ? 1 : 0;
    }
    CLOCKS.set(series, clock);
  }
  return clock;
}
