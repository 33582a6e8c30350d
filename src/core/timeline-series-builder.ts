/**
 * Writes a TimelineSeries (timeline-series.ts) a column at a time. A column packs numbers until a
 * value of another type comes, or time stamps when its first value is one, and turns to coded
 * values, keeping what it held, at the first value it cannot pack.
 */
import type { FieldWriter } from './records.js';
import { type StampShape, packStamp, stampShape, unpackStamp } from './time-stamps.js';
import { type Bits, CHUNK, CHUNK_BITS, type CodeArray, hasBit, MASK, type SeriesColumn, type TimelineEntry, type TimelineSeries } from './timeline-series.js';
import type { FieldValue } from './types.js';

/**
 * Columns a series holds at most. A server's stats lines have a few dozen kinds of values; a log
 * naming a new one on every line would hold a chunk per column, and its timeline table a cell per
 * line and column (20,000 such lines, 3.5 MB: out of memory after 150 s).
 */
export const MAX_SERIES_COLUMNS = 256;

/**
 * Collects entries into a series; memory is the columns, not an object per line. An entry is
 * pushed whole, or written a value at a time (`begin`, then `set`), which a stats-dense log's
 * reader does to make no object per line at all.
 */
export class TimelineSeriesBuilder implements FieldWriter {
  /** Values of columns past MAX_SERIES_COLUMNS: how many, and the first (its column and line). */
  #dropped: { count: number; column: string; line: number } | null = null;
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
    chunkOf(this.#lines, i >>> CHUNK_BITS, newInt32s)[i & MASK] = line;
    this.#line = line;
  }

  /** Sets a value of the entry begun last, read from `line`; false when the entry has one in `column` already. */
  set(column: string, value: FieldValue | undefined, line: number): boolean {
    if (value === undefined) return true;
    const i = this.#length - 1;
    if (i < 0) throw new Error('TimelineSeriesBuilder.set before begin');
    let c = this.#columns.get(column);
    if (c === undefined) {
      if (this.#columns.size >= MAX_SERIES_COLUMNS) {
        this.#dropped ??= { count: 0, column, line };
        this.#dropped.count++;
        return true;
      }
      this.#columns.set(column, (c = new ColumnBuilder()));
    } else if (c.has(i)) return false;
    c.set(i, value);
    if (line !== this.#line) {
      let chunks = this.#valueLines.get(column);
      if (chunks === undefined) this.#valueLines.set(column, (chunks = []));
      chunkOf(chunks, i >>> CHUNK_BITS, newInt32s)[i & MASK] = line;
    }
    return true;
  }

  /** The values left out, past MAX_SERIES_COLUMNS columns (null: none). */
  get dropped(): { readonly count: number; readonly column: string; readonly line: number } | null {
    return this.#dropped;
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

const newInt32s = (): Int32Array => new Int32Array(CHUNK);
const newFloat64s = (): Float64Array => new Float64Array(CHUNK);
const newBits = (): Bits => new Uint8Array(CHUNK >>> 3);
const newCodes = (): CodeArray => new Uint8Array(CHUNK);

/** Chunk `k` of `chunks`, made (zero-filled) when it is not there yet. */
function chunkOf<A>(chunks: (A | undefined)[], k: number, make: () => A): A {
  let chunk = chunks[k];
  if (chunk === undefined) {
    while (chunks.length < k) chunks.push(undefined);
    chunks[k] = chunk = make();
  }
  return chunk;
}

/** Presence flags by chunk, one bit an entry: which entries of a packed column have a value. */
class Presence {
  readonly #bits: (Bits | undefined)[] = [];

  has(i: number): boolean {
    return hasBit(this.#bits[i >>> CHUNK_BITS], i & MASK);
  }

  set(i: number): void {
    const chunk = chunkOf(this.#bits, i >>> CHUNK_BITS, newBits);
    const j = i & MASK;
    chunk[j >>> 3] = (chunk[j >>> 3] as number) | (1 << (j & 7));
  }

  /** Every entry with a value, in order. */
  each(f: (i: number) => void): void {
    this.#bits.forEach((chunk, k) => {
      if (chunk !== undefined) for (let j = 0; j < CHUNK; j++) if (hasBit(chunk, j)) f(k * CHUNK + j);
    });
  }

  finish(n: number): (Bits | undefined)[] {
    return trimmed(this.#bits, n, 8);
  }
}

/** Chunks for a series of `n` entries: the last one cut to its entries (`perByte` a byte), none past it. */
function trimmed<A extends Int32Array | Float64Array | CodeArray>(chunks: readonly (A | undefined)[], n: number, perByte = 1): (A | undefined)[] {
  const count = Math.ceil(n / CHUNK);
  const out = Array.from({ length: count }, (_, k) => chunks[k]);
  const last = out[count - 1];
  const rest = Math.ceil((n - (count - 1) * CHUNK) / perByte);
  if (last !== undefined && rest < last.length) out[count - 1] = last.slice(0, rest) as A;
  return out;
}

/** A column being built: packed numbers or time stamps until a value they cannot hold comes, then coded values. */
class ColumnBuilder {
  #packed: NumberPacker | StampPacker | null = new NumberPacker();
  #coded: Coder | null = null;

  /** Whether entry `i` has a value in this column. */
  has(i: number): boolean {
    return this.#packed !== null ? this.#packed.has(i) : (this.#coded as Coder).has(i);
  }

  set(i: number, value: FieldValue): void {
    const packed = this.#packed;
    if (packed instanceof NumberPacker) {
      if (typeof value === 'number') return packed.set(i, value);
      // a column whose first value is a time stamp packs time stamps
      const shape = packed.empty && typeof value === 'string' ? stampShape(value) : null;
      if (shape !== null) {
        const stamps = new StampPacker(shape);
        this.#packed = stamps;
        if (stamps.set(i, value as string)) return;
      }
    } else if (packed !== null && typeof value === 'string' && packed.set(i, value)) return;
    if (this.#coded === null) this.#coded = this.#recode();
    this.#coded.set(i, value);
  }

  finish(n: number): SeriesColumn {
    return this.#packed !== null ? this.#packed.finish(n) : (this.#coded as Coder).finish(n);
  }

  /** The values packed so far as coded values; the column stops packing. */
  #recode(): Coder {
    const coder = new Coder();
    this.#packed?.each((i, v) => coder.set(i, v));
    this.#packed = null;
    return coder;
  }
}

/** Numbers: a chunk of whole numbers in 32-bit integers, from its first other number on in doubles. */
class NumberPacker {
  readonly #values: (Int32Array | Float64Array | undefined)[] = [];
  readonly #present = new Presence();
  empty = true;

  has(i: number): boolean {
    return this.#present.has(i);
  }

  set(i: number, value: number): void {
    this.#chunk(i >>> CHUNK_BITS, value)[i & MASK] = value;
    this.#present.set(i);
    this.empty = false;
  }

  each(f: (i: number, value: FieldValue) => void): void {
    this.#present.each((i) => f(i, this.#values[i >>> CHUNK_BITS]?.[i & MASK] as number));
  }

  finish(n: number): SeriesColumn {
    return { kind: 'number', values: trimmed(this.#values, n), present: this.#present.finish(n) };
  }

  /** Chunk k, able to hold `value`: whole numbers start a chunk as 32-bit integers, any other number turns it to doubles. */
  #chunk(k: number, value: number): Int32Array | Float64Array {
    const chunk = this.#values[k];
    const whole = (value | 0) === value && !Object.is(value, -0);
    if (chunk === undefined) return chunkOf(this.#values, k, whole ? newInt32s : newFloat64s);
    if (whole || chunk instanceof Float64Array) return chunk;
    const doubles = Float64Array.from(chunk);
    this.#values[k] = doubles;
    return doubles;
  }
}

/** Time stamps of one shape, as seconds after the column's first (a 32-bit offset: ±68 years). */
class StampPacker {
  readonly #shape: StampShape;
  readonly #offsets: (Int32Array | undefined)[] = [];
  readonly #present = new Presence();
  #base: number | null = null;
  /** The last stamp packed: consecutive entries mostly share their second. */
  #lastText = '';
  #lastSeconds = 0;

  constructor(shape: StampShape) {
    this.#shape = shape;
  }

  has(i: number): boolean {
    return this.#present.has(i);
  }

  /** False, storing nothing, for a string that is not a stamp of this column's shape. */
  set(i: number, text: string): boolean {
    let seconds = this.#lastSeconds;
    if (text !== this.#lastText || this.#base === null) {
      const packed = packStamp(text, this.#shape);
      if (packed === null) return false;
      seconds = packed;
    }
    this.#base ??= seconds;
    const offset = seconds - this.#base;
    if (offset !== (offset | 0)) return false;
    this.#lastText = text;
    this.#lastSeconds = seconds;
    chunkOf(this.#offsets, i >>> CHUNK_BITS, newInt32s)[i & MASK] = offset;
    this.#present.set(i);
    return true;
  }

  each(f: (i: number, value: FieldValue) => void): void {
    const base = this.#base ?? 0;
    this.#present.each((i) => f(i, unpackStamp(base + (this.#offsets[i >>> CHUNK_BITS]?.[i & MASK] ?? 0), this.#shape)));
  }

  finish(n: number): SeriesColumn {
    return { kind: 'stamp', shape: this.#shape, base: this.#base ?? 0, offsets: trimmed(this.#offsets, n), present: this.#present.finish(n) };
  }
}

/** Distinct scalars remembered per column; past this only a repeat of the previous value shares its code. */
const MAX_REMEMBERED = 1024;

/** Codes values into a dictionary: an engine name or a batch kind is stored once, not once a line. */
class Coder {
  readonly #dict: FieldValue[] = [];
  /** A chunk's codes take 1 byte each until one passes 255, then 2, then 4 past 65,535. */
  readonly #codes: (CodeArray | undefined)[] = [];
  readonly #known = new Map<string | number | boolean | null, number>();
  #lastValue: FieldValue | undefined = undefined;
  #lastCode = 0;

  has(i: number): boolean {
    return (this.#codes[i >>> CHUNK_BITS]?.[i & MASK] ?? 0) !== 0;
  }

  set(i: number, value: FieldValue): void {
    const code = this.#code(value);
    const k = i >>> CHUNK_BITS;
    let chunk = chunkOf(this.#codes, k, newCodes);
    if ((chunk instanceof Uint8Array && code > 0xff) || (chunk instanceof Uint16Array && code > 0xffff)) {
      chunk = code > 0xffff ? Int32Array.from(chunk) : Uint16Array.from(chunk);
      this.#codes[k] = chunk;
    }
    chunk[i & MASK] = code;
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
