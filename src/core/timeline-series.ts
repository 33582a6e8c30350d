/**
 * The periodic stats lines of one server log, stored by column (schema.md §2). A long SGLang log
 * has a stats line for every prefill batch and every few decode steps: hundreds of thousands in a
 * day. As one object each they took about 450 bytes a line (a 95 MB log: 270 MB, more than a
 * worker's heap); as columns a number takes 5 bytes (a whole one) or 9, a repeated string one
 * 4-byte code, and a series crosses to the main thread as buffers moved, not an object graph
 * copied.
 *
 * Columns are kept in chunks of CHUNK entries: a growing series never copies what it holds, a
 * column absent from a stretch of the log costs nothing there, and no single allocation grows
 * with the log. A series is plain data (typed arrays, arrays, maps), so it survives structured
 * cloning between threads; the functions below read it.
 */
import type { FieldMap, FieldWriter } from './records.js';
import type { FieldValue, SourcePos } from './types.js';
import { setCell } from './cells.js';

const CHUNK_BITS = 14;
/** Entries per chunk (16,384: 128 KiB of numbers). */
export const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * Numbers packed, with a presence flag per entry: a chunk of whole numbers (counts of requests and
 * tokens) in an `Int32Array`, any other in a `Float64Array`. Other values (strings, booleans,
 * lists) coded: code c > 0 is `dict[c - 1]`, 0 no value. Chunk k holds entries k·CHUNK onwards; a
 * missing chunk holds no value.
 */
export type SeriesColumn =
  | { readonly kind: 'number'; readonly values: readonly (Int32Array | Float64Array | undefined)[]; readonly present: readonly (Uint8Array | undefined)[] }
  | { readonly kind: 'coded'; readonly dict: readonly FieldValue[]; readonly codes: readonly (Int32Array | undefined)[] };

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
  if (c.kind === 'coded') {
    const code = c.codes[k]?.[i & MASK] ?? 0;
    return code === 0 ? undefined : c.dict[code - 1];
  }
  return c.present[k]?.[i & MASK] === 1 ? c.values[k]?.[i & MASK] : undefined;
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
  const add = (chunks: readonly (Int32Array | Float64Array | Uint8Array | undefined)[]): void => {
    for (const c of chunks) if (c) buffers.add(c.buffer as ArrayBuffer);
  };
  add(series.lines);
  for (const c of series.columns.values()) {
    if (c.kind === 'number') {
      add(c.values);
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

/**
 * Collects entries into a series, a column at a time; memory is the columns, not an object per
 * line. An entry is pushed whole, or written a value at a time (`begin`, then `set`), which a
 * stats-dense log's reader does to make no object per line at all.
 */
export class TimelineSeriesBuilder implements FieldWriter {
  #length = 0;
  /** The line of the entry begun last. */
  #line = 0;
  readonly #lines: Int32Array[] = [];
  readonly #columns = new Map<string, ColumnBuilder>();
  readonly #valueLines = new Map<string, (Int32Array | undefined)[]>();

  get length(): number {
    return this.#length;
  }

  push(entry: TimelineEntry): void {
    const line = entry.at.line;
    this.begin(line);
    for (const column of Object.keys(entry.fields)) this.set(column, entry.fields[column], entry.lines[column] ?? line);
  }

  /** Starts an entry read from `line`; `set` fills it. */
  begin(line: number): void {
    const i = this.#length++;
    chunkOf(this.#lines, i >>> CHUNK_BITS, Int32Array)[i & MASK] = line;
    this.#line = line;
  }

  /** Sets a value of the entry begun last, read from `line`; false when the entry has one in `column` already. */
  set(column: string, value: FieldValue | undefined, line: number): boolean {
    if (value === undefined) return true;
    const i = this.#length - 1;
    if (i < 0) throw new Error('TimelineSeriesBuilder.set before begin');
    let c = this.#columns.get(column);
    if (c === undefined) this.#columns.set(column, (c = new ColumnBuilder()));
    else if (c.has(i)) return false;
    c.set(i, value);
    if (line !== this.#line) {
      let chunks = this.#valueLines.get(column);
      if (chunks === undefined) this.#valueLines.set(column, (chunks = []));
      chunkOf(chunks, i >>> CHUNK_BITS, Int32Array)[i & MASK] = line;
    }
    return true;
  }

  finish(): TimelineSeries {
    const n = this.#length;
    return {
      length: n,
      lines: trimmed(this.#lines, n) as Int32Array[],
      columns: new Map([...this.#columns].map(([name, c]) => [name, c.finish(n)])),
      valueLines: new Map([...this.#valueLines].map(([name, chunks]) => [name, trimmed(chunks, n)])),
    };
  }
}

/** Chunk `k` of `chunks`, allocated (zero-filled) when it is not there yet. */
function chunkOf<A extends Int32Array | Float64Array | Uint8Array>(chunks: (A | undefined)[], k: number, Type: new (n: number) => A): A {
  let chunk = chunks[k];
  if (chunk === undefined) {
    while (chunks.length < k) chunks.push(undefined);
    chunks[k] = chunk = new Type(CHUNK);
  }
  return chunk;
}

/** Chunks for a series of `n` entries: the last one cut to its entries, none past it. */
function trimmed<A extends Int32Array | Float64Array | Uint8Array>(chunks: readonly (A | undefined)[], n: number): (A | undefined)[] {
  const count = Math.ceil(n / CHUNK);
  const out = Array.from({ length: count }, (_, k) => chunks[k]);
  const last = out[count - 1];
  const rest = n - (count - 1) * CHUNK;
  if (last !== undefined && rest < CHUNK) out[count - 1] = last.slice(0, rest) as A;
  return out;
}

/** A column being built: packed numbers until a value of another type comes, then coded values. */
class ColumnBuilder {
  #numbers: (Int32Array | Float64Array | undefined)[] | null = [];
  readonly #present: (Uint8Array | undefined)[] = [];
  #coded: Coder | null = null;

  set(i: number, value: FieldValue): void {
    const k = i >>> CHUNK_BITS;
    if (this.#numbers !== null && typeof value === 'number') {
      this.#numberChunk(k, value)[i & MASK] = value;
      chunkOf(this.#present, k, Uint8Array)[i & MASK] = 1;
      return;
    }
    if (this.#coded === null) this.#coded = this.#recode();
    this.#coded.set(i, value);
  }

  /** Whether entry `i` has a value in this column. */
  has(i: number): boolean {
    if (this.#numbers !== null) return this.#present[i >>> CHUNK_BITS]?.[i & MASK] === 1;
    return (this.#coded as Coder).has(i);
  }

  finish(n: number): SeriesColumn {
    if (this.#numbers !== null) return { kind: 'number', values: trimmed(this.#numbers, n), present: trimmed(this.#present, n) };
    return (this.#coded as Coder).finish(n);
  }

  /** Chunk k, able to hold `value`: whole numbers start a chunk as 32-bit integers, any other number turns it to doubles. */
  #numberChunk(k: number, value: number): Int32Array | Float64Array {
    const numbers = this.#numbers as (Int32Array | Float64Array | undefined)[];
    const chunk = numbers[k];
    const whole = (value | 0) === value && !Object.is(value, -0);
    if (chunk === undefined) return chunkOf(numbers, k, whole ? Int32Array : Float64Array);
    if (whole || chunk instanceof Float64Array) return chunk;
    const doubles = Float64Array.from(chunk);
    numbers[k] = doubles;
    return doubles;
  }

  /** The numbers so far as coded values; the column stops packing. */
  #recode(): Coder {
    const coder = new Coder();
    (this.#numbers ?? []).forEach((chunk, k) => {
      const present = this.#present[k];
      if (chunk === undefined || present === undefined) return;
      for (let j = 0; j < CHUNK; j++) if (present[j] === 1) coder.set(k * CHUNK + j, chunk[j] as number);
    });
    this.#numbers = null;
    return coder;
  }
}

/** Distinct scalars remembered per column; past this (time stamps) only a repeat of the previous value shares its code. */
const MAX_REMEMBERED = 1024;

/** Codes values into a dictionary: an engine name or a batch kind is stored once, not once a line. */
class Coder {
  readonly #dict: FieldValue[] = [];
  readonly #codes: (Int32Array | undefined)[] = [];
  readonly #known = new Map<string | number | boolean | null, number>();
  #lastValue: FieldValue | undefined = undefined;
  #lastCode = 0;

  set(i: number, value: FieldValue): void {
    chunkOf(this.#codes, i >>> CHUNK_BITS, Int32Array)[i & MASK] = this.#code(value);
  }

  has(i: number): boolean {
    return (this.#codes[i >>> CHUNK_BITS]?.[i & MASK] ?? 0) !== 0;
  }

  finish(n: number): SeriesColumn {
    return { kind: 'coded', dict: this.#dict, codes: trimmed(this.#codes, n) };
  }

  #code(value: FieldValue): number {
    // lists are never shared (each is its own value); -0 is kept apart from 0, which a Map would merge
    const remember = (typeof value !== 'object' || value === null) && !Object.is(value, -0);
    if (remember && this.#lastCode > 0 && Object.is(this.#lastValue, value)) return this.#lastCode;
    let code = remember ? this.#known.get(value as string | number | boolean | null) : undefined;
    if (code === undefined) {
      this.#dict.push(value);
      code = this.#dict.length;
      if (remember && this.#known.size < MAX_REMEMBERED) this.#known.set(value as string | number | boolean | null, code);
    }
    this.#lastValue = value;
    this.#lastCode = code;
    return code;
  }
}
