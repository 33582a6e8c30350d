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
import { ownCell, setCell } from '../core/cells.js';

export const MAX_POINTS = 1000;

/** Timeline rows, sorted by log then line, read one at a time. */
export interface RowSource {
  readonly length: number;
  row(i: number): Row;
  /** One cell of row `i`, without building the row. */
  cell(i: number, column: string): FieldValue | undefined;
  /** The columns every row has (a table's), or null when rows have their own (each row's keys are read). */
  readonly columns: readonly string[] | null;
}

/** Rows of an array as a source. */
export function arraySource(rows: readonly Row[]): RowSource {
  return { length: rows.length, row: (i) => rows[i] as Row, cell: (i, column) => (rows[i] === undefined ? undefined : ownCell(rows[i], column)), columns: null };
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
  const seconds = lastSeconds();
  const spans = new Map<string, LogSpan>();
  for (let i = 0; i < source.length; i++) {
    const file = text(source.cell(i, 'source_file')) ?? '';
    const t = seconds(text(source.cell(i, 'time')));
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
  // a bin's sums by column number, so a cell costs no lookup by name
  const columnIndex = new Map<string, number>();
  const columnNames: string[] = [];
  const indexOf = (column: string): number => {
    let k = columnIndex.get(column);
    if (k === undefined) {
      k = columnNames.push(column) - 1;
      columnIndex.set(column, k);
    }
    return k;
  };
  const add = (bin: Bin, column: string, value: FieldValue | undefined): void => {
    const v = num(value);
    if (v === null || column === 'source_line') return;
    const k = indexOf(column);
    if (bin.counts[k] === undefined) {
      bin.order.push(k);
      bin.sums[k] = 0;
      bin.counts[k] = 0;
    }
    bin.sums[k] = (bin.sums[k] as number) + v;
    bin.counts[k] = (bin.counts[k] as number) + 1;
  };
  const out: Row[] = [];
  const flush = (bins: Bin[]): void => {
    for (const b of bins) if (b !== undefined && b.count > 0) out.push(binRow(b, columnNames));
  };
  let bins: Bin[] = [];
  let current: string | null = null;
  let position = 0;
  for (let i = 0; i < source.length; i++) {
    const file = text(source.cell(i, 'source_file')) ?? '';
    if (file !== current) {
      flush(bins);
      bins = [];
      current = file;
      position = 0;
    }
    const span = spans.get(file) as LogSpan;
    if (span.lines <= max) {
      out.push(source.row(i));
      continue;
    }
    const width = (span.last - span.first) / max;
    const t = seconds(text(source.cell(i, 'time')));
    const k = span.timed && width > 0 && t !== null ? Math.min(max - 1, Math.floor((t - span.first) / width)) : Math.floor((position * max) / span.lines);
    position++;
    let bin = bins[k];
    if (bin === undefined) bins[k] = bin = { first: source.row(i), start: span.timed && width > 0 ? span.first + k * width : null, count: 0, order: [], sums: [], counts: [] };
    bin.count++;
    if (source.columns !== null) for (const column of source.columns) add(bin, column, source.cell(i, column));
    else {
      const r = bin.count === 1 ? bin.first : source.row(i);
      for (const column in r) add(bin, column, r[column]);
    }
  }
  flush(bins);
  return out;
}

interface Bin {
  readonly first: Row;
  /** Seconds at the bin's start (binned by time), else null. */
  readonly start: number | null;
  count: number;
  /** Column numbers in the order the bin first had a number in them. */
  readonly order: number[];
  readonly sums: number[];
  readonly counts: number[];
}

function binRow(bin: Bin, columnNames: readonly string[]): Row {
  const row: Record<string, FieldValue | undefined> = { ...bin.first };
  for (const k of bin.order) setCell(row, columnNames[k] as string, (bin.sums[k] as number) / (bin.counts[k] as number));
  if (bin.start !== null) row.time = new Date(bin.start * 1000).toISOString().slice(0, 23);
  row.stats_lines = bin.count;
  return row;
}

/** parseSeconds remembering its last answer: neighbouring stats lines mostly share their second. */
function lastSeconds(): (time: string | null) => number | null {
  let lastText: string | null = null;
  let last: number | null = null;
  return (time) => {
    if (time !== lastText) {
      lastText = time;
      last = parseSeconds(time);
    }
    return last;
  };
}

/** Seconds from an ISO-like `YYYY-MM-DD[T ]HH:MM:SS[.fff]` (read as UTC), or null. */
export function parseSeconds(time: string | null): number | null {
  if (time === null) return null;
  const m = /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(time);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, 0) / 1000 + s;
}
