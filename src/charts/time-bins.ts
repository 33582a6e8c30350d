/**
 * A long server log has tens of thousands of stats lines (SGLang logs a decode batch every few
 * hundred milliseconds): more than a chart a few hundred pixels wide can show, and an SVG of
 * megabytes. A log with more than MAX_POINTS lines is drawn as MAX_POINTS equal time bins, each
 * row at the mean of its lines' numbers; the timeline table keeps every line.
 *
 * The rows are read twice through `row(i)` and never held all at once, so a report can bin a
 * timeline of hundreds of thousands of lines without building them (normalize/timeline-table.ts).
 */
import type { FieldValue } from '../core/types.js';
import { num, text } from './fields.js';
import type { Row } from './types.js';
import { setCell } from '../core/cells.js';

export const MAX_POINTS = 1000;

/** Timeline rows, sorted by log then line, read one at a time. */
export interface RowSource {
  readonly length: number;
  row(i: number): Row;
}

/** Rows of an array as a source. */
export function arraySource(rows: readonly Row[]): RowSource {
  return { length: rows.length, row: (i) => rows[i] as Row };
}

interface LogSpan {
  lines: number;
  first: number;
  last: number;
  /** Every line has a time stamp: bins are by time, else by position. */
  timed: boolean;
}

/**
 * The rows of each log with at most `max` lines as they are; a longer log as `max` bins (by time
 * when every line is stamped, else by position): each bin is its first row with every number
 * replaced by the mean of the bin's, `time` set to the bin's start, and `stats_lines` its count.
 */
export function binTimelineRows(source: RowSource, max = MAX_POINTS): Row[] {
  const spans = new Map<string, LogSpan>();
  for (let i = 0; i < source.length; i++) {
    const r = source.row(i);
    const file = text(r.source_file) ?? '';
    const t = parseSeconds(text(r.time));
    const span = spans.get(file);
    if (span === undefined) spans.set(file, { lines: 1, first: t ?? 0, last: t ?? 0, timed: t !== null });
    else {
      span.lines++;
      if (t === null) span.timed = false;
      else {
        span.first = Math.min(span.first, t);
        span.last = Math.max(span.last, t);
      }
    }
  }
  const out: Row[] = [];
  let bins: Bin[] = [];
  let current: string | null = null;
  let position = 0;
  for (let i = 0; i < source.length; i++) {
    const r = source.row(i);
    const file = text(r.source_file) ?? '';
    if (file !== current) {
      out.push(...bins.filter((b) => b.count > 0).map(binRow));
      bins = [];
      current = file;
      position = 0;
    }
    const span = spans.get(file) as LogSpan;
    if (span.lines <= max) {
      out.push(r);
      continue;
    }
    const width = (span.last - span.first) / max;
    const t = parseSeconds(text(r.time));
    const k = span.timed && width > 0 && t !== null ? Math.min(max - 1, Math.floor((t - span.first) / width)) : Math.floor((position * max) / span.lines);
    position++;
    const bin = (bins[k] ??= { first: r, start: span.timed && width > 0 ? span.first + k * width : null, count: 0, sums: new Map(), counts: new Map() });
    bin.count++;
    for (const [column, value] of Object.entries(r)) {
      const v = num(value);
      if (v === null || column === 'source_line') continue;
      bin.sums.set(column, (bin.sums.get(column) ?? 0) + v);
      bin.counts.set(column, (bin.counts.get(column) ?? 0) + 1);
    }
  }
  out.push(...bins.filter((b) => b.count > 0).map(binRow));
  return out;
}

interface Bin {
  readonly first: Row;
  /** Seconds at the bin's start (binned by time), else null. */
  readonly start: number | null;
  count: number;
  readonly sums: Map<string, number>;
  readonly counts: Map<string, number>;
}

function binRow(bin: Bin): Row {
  const row: Record<string, FieldValue | undefined> = { ...bin.first };
  for (const [column, sum] of bin.sums) setCell(row, column, sum / (bin.counts.get(column) ?? 1));
  if (bin.start !== null) row.time = new Date(bin.start * 1000).toISOString().slice(0, 23);
  row.stats_lines = bin.count;
  return row;
}

/** Seconds from an ISO-like `YYYY-MM-DD[T ]HH:MM:SS[.fff]` (read as UTC), or null. */
export function parseSeconds(time: string | null): number | null {
  if (time === null) return null;
  const m = /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(time);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, 0) / 1000 + s;
}
