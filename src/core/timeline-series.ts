/**
 * The periodic stats lines of one server log, stored by column (schema.md §2). A long SGLang log
 * has a stats line for every prefill batch and every few decode steps: hundreds of thousands in a
 * day. As one object each they took about 450 bytes a line (a 95 MB log: 270 MB, more than a
 * worker's heap); as columns a whole number takes 4 bytes and a bit, a fraction 8 and a bit, a
 * time stamp 4 and a bit, a repeated string a 1-byte code (2 or 4 past 255 or 65,535 distinct
 * values), and a series crosses to the main thread as buffers moved, not an object graph copied.
 *
 * Columns are kept in chunks of CHUNK entries: a growing series never copies what it holds, a
 * column absent from a stretch of the log costs nothing there, and no single allocation grows
 * with the log. A series is plain data (typed arrays, arrays, maps), so it survives structured
 * cloning between threads; the functions below read it, timeline-series-builder.ts writes it.
 */
import type { FieldMap } from './records.js';
import type { FieldValue, SourcePos } from './types.js';
import { setCell } from './cells.js';
import { packStamp, type StampShape, unpackStamp } from './time-stamps.js';

export const CHUNK_BITS = 14;
/** Entries per chunk (16,384: 64 KiB of whole numbers). */
export const CHUNK = 1 << CHUNK_BITS;
export const MASK = CHUNK - 1;

/** Presence flags, one bit an entry (CHUNK / 8 bytes a chunk). */
export type Bits = Uint8Array;
export type CodeArray = Uint8Array | Uint16Array | Int32Array;

/**
 * Numbers packed, with a presence bit per entry: a chunk of whole numbers (counts of requests and
 * tokens) in an `Int32Array`, any other in a `Float64Array`. Time stamps packed as seconds after
 * the column's first (time-stamps.ts), with a presence bit. Other values (strings, booleans,
 * lists) coded: code c > 0 is `dict[c - 1]`, 0 no value. Chunk k holds entries k·CHUNK onwards; a
 * missing chunk holds no value.
 */
export type SeriesColumn =
  | { readonly kind: 'number'; readonly values: readonly (Int32Array | Float64Array | undefined)[]; readonly present: readonly (Bits | undefined)[] }
  | { readonly kind: 'stamp'; readonly shape: StampShape; readonly base: number; readonly offsets: readonly (Int32Array | undefined)[]; readonly present: readonly (Bits | undefined)[] }
  | { readonly kind: 'coded'; readonly dict: readonly FieldValue[]; readonly codes: readonly (CodeArray | undefined)[] };

/** Whether bit `j` of a presence chunk is set. */
export function hasBit(bits: Bits | undefined, j: number): boolean {
  return bits !== undefined && ((bits[j >>> 3] as number) & (1 << (j & 7))) !== 0;
}

export interface TimelineSeries {
  readonly length: number;
  /** The source line of each entry (its stats line), by chunk. */
  readonly lines: readonly Int32Array[];
  /** In the order the columns first appeared. */
  readonly columns: ReadonlyMap<string, SeriesColumn>;
  /**
   * Per column, by chunk, the line of each value read from another line than its entry's (a
   * speculative-decoding line merged into the stats line logged with it), 0 elsewhere. Only the
   * grammars' golden tests read them; a pooled scan drops them (without-field-lines.ts).
   */
  readonly valueLines: ReadonlyMap<string, readonly (Int32Array | undefined)[]>;
}

/** One stats line as a grammar reads it, before it joins its series. */
export interface TimelineEntry extends FieldMap {
  readonly at: SourcePos;
}

/** The source line of entry `i`. */
export function seriesLine(series: TimelineSeries, i: number): number {
  return series.lines[i >>> CHUNK_BITS]?.[i & MASK] ?? 0;
}

/** The value of `column` at entry `i`; undefined when that line has none. */
export function seriesValue(series: TimelineSeries, column: string, i: number): FieldValue | undefined {
  const c = series.columns.get(column);
  if (c === undefined) return undefined;
  const k = i >>> CHUNK_BITS;
  const j = i & MASK;
  switch (c.kind) {
    case 'coded': {
      const code = c.codes[k]?.[j] ?? 0;
      return code === 0 ? undefined : c.dict[code - 1];
    }
    case 'number':
      return hasBit(c.present[k], j) ? c.values[k]?.[j] : undefined;
    case 'stamp':
      return hasBit(c.present[k], j) ? stampText(c.base + (c.offsets[k]?.[j] ?? 0), c.shape) : undefined;
  }
}

/** The last stamp unpacked: entries next to each other mostly share their second. */
let lastStamp = { seconds: Number.NaN, shape: 'dated' as StampShape, text: '' };

function stampText(seconds: number, shape: StampShape): string {
  if (seconds !== lastStamp.seconds || shape !== lastStamp.shape) lastStamp = { seconds, shape, text: unpackStamp(seconds, shape) };
  return lastStamp.text;
}

/** Entry `i` as an object of its values (columns without a value left out), in column order. */
export function seriesFields(series: TimelineSeries, i: number): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const column of series.columns.keys()) {
    const v = seriesValue(series, column, i);
    if (v !== undefined) setCell(out, column, v);
  }
  return out;
}

/** Entry `i` with the line of each of its values, as the grammar read it. */
export function seriesEntry(series: TimelineSeries, file: SourcePos['file'], i: number): TimelineEntry {
  const line = seriesLine(series, i);
  const fields = seriesFields(series, i);
  const lines: Record<string, number> = {};
  for (const column of Object.keys(fields)) {
    const other = series.valueLines.get(column)?.[i >>> CHUNK_BITS]?.[i & MASK] ?? 0;
    setCell(lines, column, other === 0 ? line : other);
  }
  return { at: { file, line, column: 1 }, fields, lines };
}

/** Every entry of a series, as the grammar read them (tests; nothing in the pipeline holds them all). */
export function seriesEntries(series: TimelineSeries, file: SourcePos['file']): TimelineEntry[] {
  return Array.from({ length: series.length }, (_, i) => seriesEntry(series, file, i));
}

/** The buffers of a series' packed arrays, to transfer it to another thread instead of copying it. */
export function seriesBuffers(series: TimelineSeries): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (chunks: readonly (Int32Array | Float64Array | CodeArray | undefined)[]): void => {
    for (const c of chunks) if (c) buffers.add(c.buffer as ArrayBuffer);
  };
  add(series.lines);
  for (const c of series.columns.values()) {
    if (c.kind === 'number') {
      add(c.values);
      add(c.present);
    } else if (c.kind === 'stamp') {
      add(c.offsets);
      add(c.present);
    } else add(c.codes);
  }
  for (const lines of series.valueLines.values()) add(lines);
  return [...buffers];
}

/** The same series without the per-value lines (what a pooled scan keeps). */
export function withoutValueLines(series: TimelineSeries): TimelineSeries {
  return series.valueLines.size === 0 ? series : { ...series, valueLines: new Map() };
}

/** The series with every line number mapped (a grammar that read some lines of a file as the whole file). */
export function remapSeries(series: TimelineSeries, lineOf: (line: number) => number): TimelineSeries {
  const map = (chunk: Int32Array | undefined): Int32Array | undefined => chunk?.map((l) => (l === 0 ? 0 : lineOf(l)));
  return {
    ...series,
    lines: series.lines.map((chunk) => map(chunk) as Int32Array),
    valueLines: new Map([...series.valueLines].map(([c, chunks]) => [c, chunks.map(map)])),
  };
}

/** The flag of a `time` whose year a grammar put in place of one the log did not print (schema.md §2). */
const YEAR_INFERRED = 'time_year_inferred';

/**
 * The series with the year of its flagged stamps given: a grammar that learns the log's year only
 * after some year-less stamps (a later line prints the date) wrote them with the base year (2000, schema.md §2) and
 * the `time_year_inferred` flag, and knows at the end by how many `years` that base year is off.
 * Every flagged `time` is moved by that many years and loses its flag (the flag column goes when
 * no entry keeps it). A stamp the new year cannot hold (`02-29` of a common year), or a `time`
 * column not packed as dated stamps (one of its values was no date), keeps its base year and flag.
 */
export function withInferredYearsGiven(series: TimelineSeries, years: number): TimelineSeries {
  const time = series.columns.get('time');
  const flag = series.columns.get(YEAR_INFERRED);
  if (time?.kind !== 'stamp' || time.shape !== 'dated' || flag?.kind !== 'coded') return series;
  const offsets = [...time.offsets];
  const codes = [...flag.codes];
  let flagged = 0;
  codes.forEach((chunk, k) => {
    if (chunk === undefined) return;
    for (let j = 0; j < chunk.length; j++) {
      const code = chunk[j] as number;
      if (code === 0) continue;
      const moved = flag.dict[code - 1] === true && hasBit(time.present[k], j) ? movedStamp(time.base + (time.offsets[k]?.[j] ?? 0), years) : null;
      const offset = moved === null ? Number.NaN : moved - time.base;
      if (offset !== (offset | 0)) {
        flagged++;
        continue;
      }
      writable(offsets, time.offsets, k)[j] = offset;
      writable(codes, flag.codes, k)[j] = 0;
    }
  });
  const columns = new Map(series.columns).set('time', { ...time, offsets });
  if (flagged > 0) return { ...series, columns: columns.set(YEAR_INFERRED, { ...flag, codes }) };
  columns.delete(YEAR_INFERRED);
  const valueLines = new Map(series.valueLines);
  valueLines.delete(YEAR_INFERRED);
  return { ...series, columns, valueLines };
}

/** A dated stamp (seconds) `years` later, or null when that date does not exist. */
function movedStamp(seconds: number, years: number): number | null {
  const text = unpackStamp(seconds, 'dated');
  const year = Number(text.slice(0, 4)) + years;
  return packStamp(`${String(year).padStart(4, '0')}${text.slice(4)}`, 'dated');
}

/** Chunk `k` of `copies` (chunks of `originals` until written), made a copy of its own first. */
function writable<A extends Int32Array | CodeArray>(copies: (A | undefined)[], originals: readonly (A | undefined)[], k: number): A {
  const chunk = copies[k];
  if (chunk === undefined) throw new Error('writable: no chunk to write into');
  if (chunk !== originals[k]) return chunk;
  const copy = chunk.slice() as A;
  copies[k] = copy;
  return copy;
}
