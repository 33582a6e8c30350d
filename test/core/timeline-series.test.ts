import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHUNK,
  remapSeries,
  seriesBuffers,
  seriesEntries,
  seriesValue,
  type TimelineEntry,
  withInferredYearsGiven,
  withoutValueLines,
} from '../../src/core/timeline-series.js';
import { MAX_SERIES_COLUMNS, TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath, type FieldValue } from '../../src/core/types.js';
import { FieldMapBuilder, timelineRecords } from '../../src/core/records.js';

const FILE = asRelPath('serve.log');

function build(entries: readonly TimelineEntry[]) {
  const b = new TimelineSeriesBuilder();
  for (const e of entries) b.push(e);
  return b.finish();
}

const value: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, Number.NaN, Infinity),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('vllm', 'sglang', '2026-01-01T00:00:00'),
  // time stamps, packed as seconds: valid ones of both shapes, and ones that must stay strings
  fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19)),
  fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2000-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(5, 19)),
  fc.constantFrom('2026-02-30T00:00:00', '2025-02-29T10:00:00', '02-29T23:59:59', '0099-01-01T00:00:00', '2026-13-01T00:00:00', '2026-01-01T24:00:00', '2026-01-01T00:00:60', '2026-01-01 00:00:00', '2026-01-01T00:00:0x', '12-31T00:00'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.double({ noNaN: true }), { maxLength: 3 }),
);

const column = fc.constantFrom('time', 'gen_throughput', 'running', 'engine', 'graph', '__proto__', 'constructor');

/** Entries on increasing lines; a value may come from the next line (a merged companion line). */
const entries = fc
  .array(fc.tuple(fc.dictionary(column, value, { maxKeys: 5 }), fc.nat(3), fc.boolean()), { maxLength: 60 })
  .map((items) => {
    let line = 0;
    return items.map(([fields, gap, merged]): TimelineEntry => {
      line += gap + 1;
      const lines = Object.fromEntries(Object.keys(fields).map((k, i) => [k, merged && i === 0 ? line + 1 : line]));
      if (merged) line++;
      return { at: { file: FILE, line, column: 1 }, fields, lines };
    });
  });

describe('timeline series', () => {
  it('gives back every entry as it was pushed: values, absent values and the line of each value', () => {
    fc.assert(
      fc.property(entries, (pushed) => {
        expect(seriesEntries(build(pushed), FILE)).toEqual(pushed);
      }),
    );
  });

  it('written a value at a time, keeps the first value of a column as a FieldMapBuilder does', () => {
    const writes = fc.array(fc.tuple(fc.nat(3), fc.array(fc.tuple(column, fc.option(value, { nil: undefined }), fc.boolean()), { maxLength: 8 })), { maxLength: 40 });
    fc.assert(
      fc.property(writes, (items) => {
        const direct = new TimelineSeriesBuilder();
        const pushed: TimelineEntry[] = [];
        let line = 0;
        for (const [gap, sets] of items) {
          line += gap + 2;
          direct.begin(line);
          const b = new FieldMapBuilder();
          for (const [c, v, next] of sets) {
            const at = next ? line + 1 : line;
            expect(direct.set(c, v, at)).toBe(b.set(c, v, at));
          }
          pushed.push({ at: { file: FILE, line, column: 1 }, fields: b.fields, lines: b.lines });
        }
        expect(seriesEntries(direct.finish(), FILE)).toEqual(seriesEntries(build(pushed), FILE));
      }),
    );
    expect(() => new TimelineSeriesBuilder().set('running', 1, 1)).toThrow(/before begin/);
  });

  it('survives a structured clone with its packed buffers transferred', () => {
    fc.assert(
      fc.property(entries, (pushed) => {
        const series = build(pushed);
        const copy = structuredClone(series, { transfer: seriesBuffers(series) });
        expect(seriesEntries(copy, FILE)).toEqual(pushed);
      }),
    );
  });

  it('keeps values across chunk boundaries, in columns that start packed and turn coded', () => {
    const n = 2 * CHUNK + 5;
    const pushed = Array.from({ length: n }, (_, i): TimelineEntry => {
      const fields: Record<string, FieldValue> = { running: i };
      if (i % 3 === 0) fields.kv_cache_usage = i / n;
      // a number column until its last entries, which hold a string
      fields.mixed = i >= n - 3 ? `s${i}` : i * 0.5;
      // whole until a chunk's last entries: -0 and 2^31 must not be stored as 32-bit integers
      fields.counts = i === CHUNK - 1 ? -0 : i === 2 * CHUNK - 1 ? 2 ** 31 : i;
      if (i >= CHUNK && i < CHUNK + 10) fields.rare = true;
      return { at: { file: FILE, line: i + 1, column: 1 }, fields, lines: Object.fromEntries(Object.keys(fields).map((k) => [k, i + 1])) };
    });
    const series = build(pushed);
    expect(series.length).toBe(n);
    const running = series.columns.get('running');
    // whole numbers take 4 bytes, not 8; a chunk that meets a fraction turns to doubles
    expect(running?.kind === 'number' && running.values.every((c) => c instanceof Int32Array)).toBe(true);
    const mixed = series.columns.get('kv_cache_usage');
    expect(mixed?.kind === 'number' && mixed.values.every((c) => c instanceof Float64Array)).toBe(true);
    expect(series.columns.get('mixed')?.kind).toBe('coded');
    expect(seriesValue(series, 'mixed', CHUNK + 1)).toBe((CHUNK + 1) * 0.5);
    expect(seriesValue(series, 'mixed', n - 1)).toBe(`s${n - 1}`);
    expect(seriesValue(series, 'kv_cache_usage', 1)).toBeUndefined();
    expect(seriesValue(series, 'rare', CHUNK + 3)).toBe(true);
    expect(Object.is(seriesValue(series, 'counts', CHUNK - 1), -0)).toBe(true);
    expect(seriesValue(series, 'counts', 2 * CHUNK - 1)).toBe(2 ** 31);
    expect(seriesValue(series, 'counts', 2 * CHUNK - 2)).toBe(2 * CHUNK - 2);
    expect(seriesValue(series, 'rare', 3)).toBeUndefined();
    expect(seriesEntries(series, FILE)).toEqual(pushed);
  });

  it('stores a repeated string once and a column absent from whole chunks not at all', () => {
    const b = new TimelineSeriesBuilder();
    for (let i = 0; i < 3 * CHUNK; i++) b.push({ at: { file: FILE, line: i + 1, column: 1 }, fields: { engine: 'sglang', batch: i % 2 ? 'decode' : 'prefill', ...(i < 10 ? { rare: 1 } : {}) }, lines: {} });
    const series = b.finish();
    const engine = series.columns.get('engine');
    expect(engine?.kind === 'coded' && engine.dict).toEqual(['sglang']);
    const batch = series.columns.get('batch');
    expect(batch?.kind === 'coded' && batch.dict).toEqual(['prefill', 'decode']);
    const rare = series.columns.get('rare');
    expect(rare?.kind === 'number' && rare.values.filter((c) => c !== undefined)).toHaveLength(1);
  });

  it('packs time stamps as seconds while each has the shape of the first, in 4 bytes and a bit', () => {
    const b = new TimelineSeriesBuilder();
    const start = Date.UTC(2026, 0, 1, 23, 59, 0);
    for (let i = 0; i < CHUNK + 5; i++) {
      b.begin(i + 1);
      const iso = new Date(start + Math.floor(i / 4) * 1000).toISOString();
      b.set('time', iso.slice(0, 19), i + 1);
      b.set('clock', iso.slice(5, 19), i + 1);
      if (i === CHUNK + 4) b.set('time', 'x', i + 1);
    }
    const series = b.finish();
    const time = series.columns.get('time');
    expect(time?.kind === 'stamp' && time.offsets.every((c) => c instanceof Int32Array)).toBe(true);
    expect(time?.kind === 'stamp' && time.present.map((c) => c?.length)).toEqual([CHUNK / 8, 1]);
    expect(seriesValue(series, 'time', 0)).toBe('2026-01-01T23:59:00');
    expect(seriesValue(series, 'time', 241)).toBe('2026-01-02T00:00:00');
    expect(seriesValue(series, 'clock', CHUNK + 4)).toBe(new Date(start + Math.floor((CHUNK + 4) / 4) * 1000).toISOString().slice(5, 19));
    // a value of another kind (a year-less stamp, a word) turns the column to coded values, keeping what it held
    const mixed = new TimelineSeriesBuilder();
    for (const [i, v] of ['2026-01-01T00:00:00', '01-01T00:00:01', 'x'].entries()) {
      mixed.begin(i + 1);
      mixed.set('time', v, i + 1);
    }
    const coded = mixed.finish();
    expect(coded.columns.get('time')?.kind).toBe('coded');
    expect([0, 1, 2].map((i) => seriesValue(coded, 'time', i))).toEqual(['2026-01-01T00:00:00', '01-01T00:00:01', 'x']);
  });

  it('codes in 1 byte until a chunk needs 2, then 4', () => {
    const b = new TimelineSeriesBuilder();
    const n = 70_000;
    for (let i = 0; i < n; i++) b.push({ at: { file: FILE, line: i + 1, column: 1 }, fields: { label: `l${i < 200 ? i % 7 : i}`, kind: i % 2 ? 'a' : 'b' }, lines: {} });
    const series = b.finish();
    const label = series.columns.get('label');
    const kind = series.columns.get('kind');
    expect(label?.kind === 'coded' && label.codes.map((c) => c?.constructor.name)).toEqual(['Uint16Array', 'Uint16Array', 'Uint16Array', 'Uint16Array', 'Int32Array']);
    expect(kind?.kind === 'coded' && kind.codes.every((c) => c instanceof Uint8Array)).toBe(true);
    for (const i of [0, 5, 199, 200, 65_535, 65_600, n - 1]) expect(seriesValue(series, 'label', i)).toBe(`l${i < 200 ? i % 7 : i}`);
  });

  it('maps lines for a grammar that read some lines of a file, and drops value lines on request', () => {
    const pushed: TimelineEntry[] = [
      { at: { file: FILE, line: 1, column: 1 }, fields: { a: 1, b: 2 }, lines: { a: 1, b: 2 } },
      { at: { file: FILE, line: 3, column: 1 }, fields: { a: 3 }, lines: { a: 3 } },
    ];
    const remapped = seriesEntries(remapSeries(build(pushed), (l) => l * 10), FILE);
    expect(remapped.map((e) => [e.at.line, e.lines])).toEqual([
      [10, { a: 10, b: 20 }],
      [30, { a: 30 }],
    ]);
    expect(seriesEntries(withoutValueLines(build(pushed)), FILE)[0]?.lines).toEqual({ a: 1, b: 1 });
  });
});

describe('year-less stamps given the year the log said later', () => {
  const entry = (line: number, time: string, inferred: boolean): TimelineEntry => ({
    at: { file: FILE, line, column: 1 },
    fields: inferred ? { time, running: line, time_year_inferred: true } : { time, running: line },
    lines: {},
  });

  it('moves every flagged stamp by the years, across chunks, and drops the flag column when none keeps it', () => {
    const entries = Array.from({ length: CHUNK + 3 }, (_, i) => entry(i + 1, i % 2 === 0 ? '2000-12-31T23:59:59' : '2001-01-01T00:00:00', true));
    entries.push(entry(CHUNK + 4, '2025-01-01T00:00:10', false));
    const moved = withInferredYearsGiven(build(entries), 24);
    expect([...moved.columns.keys()]).toEqual(['time', 'running']);
    expect([0, 1, CHUNK, CHUNK + 1, CHUNK + 3].map((i) => seriesValue(moved, 'time', i))).toEqual([
      '2024-12-31T23:59:59', '2025-01-01T00:00:00', '2024-12-31T23:59:59', '2025-01-01T00:00:00', '2025-01-01T00:00:10',
    ]);
  });

  it('keeps the placeholder and the flag of a date the new year has not (02-29), and leaves the input series as it was', () => {
    const series = build([entry(1, '2000-02-29T10:00:00', true), entry(2, '2000-03-01T10:00:00', true)]);
    const moved = withInferredYearsGiven(series, 25);
    expect(seriesEntries(moved, FILE).map((e) => e.fields)).toEqual([
      { time: '2000-02-29T10:00:00', running: 1, time_year_inferred: true },
      { time: '2025-03-01T10:00:00', running: 2 },
    ]);
    expect(seriesValue(series, 'time', 1)).toBe('2000-03-01T10:00:00');
    expect(seriesValue(series, 'time_year_inferred', 1)).toBe(true);
  });
});

describe('a series of more kinds of values than any server logs', () => {
  it('keeps the first MAX_SERIES_COLUMNS columns, leaves the others out and says so once', () => {
    const builder = new TimelineSeriesBuilder();
    for (let i = 0; i < 1000; i++) {
      builder.begin(i + 1);
      builder.set('running', i, i + 1);
      builder.set(`weird_${i}`, i, i + 1);
    }
    expect(builder.dropped).toEqual({ count: 1000 - (MAX_SERIES_COLUMNS - 1), column: `weird_${MAX_SERIES_COLUMNS - 1}`, line: MAX_SERIES_COLUMNS });
    const sink = new DiagnosticCollector();
    const [record] = timelineRecords(asRelPath('s.log'), builder, sink);
    expect(record?.series.length).toBe(1000);
    expect(record?.series.columns.size).toBe(MAX_SERIES_COLUMNS);
    expect(record?.series.columns.has('running')).toBe(true);
    expect(sink.list().map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      `256 log/too-many-stats stats lines name more than 256 kinds of values: 745 values of the others (first "weird_255") left out of the timeline`,
    ]);
  });
});
