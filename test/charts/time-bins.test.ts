import { describe, expect, it } from 'vitest';
import { serverTimeline } from '../../src/charts/server-timeline.js';
import { arraySource, binTimelineRows, MAX_POINTS } from '../../src/charts/time-bins.js';
import type { Row } from '../../src/charts/types.js';

const stamp = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString().slice(0, 19);

/** `n` stats lines of one log, one a second, gen_throughput = line index. */
const log = (file: string, n: number, timed = true): Row[] =>
  Array.from({ length: n }, (_, i) => ({ source_file: file, source_line: i + 1, engine: 'vllm', time: timed ? stamp(i) : null, gen_throughput: i, running: i % 2 ? 4 : null }));

describe('time bins for long timelines', () => {
  it('leaves a log of at most the limit as it is', () => {
    const rows = log('a.log', 100);
    expect(binTimelineRows(arraySource(rows), 100)).toEqual(rows);
  });

  it('draws a longer log as equal time bins at the mean of their numbers, each log on its own', () => {
    const rows = [...log('a.log', 10_000), ...log('b.log', 50)];
    const out = binTimelineRows(arraySource(rows), 100);
    expect(out.map((r) => r.source_file)).toEqual([...Array(100).fill('a.log'), ...Array(50).fill('b.log')]);
    const a = out.filter((r) => r.source_file === 'a.log');
    expect(a).toHaveLength(100);
    // the span is 9,999 s: each bin covers 99.99 s, so the first holds lines 1–100
    expect(a[0]).toMatchObject({ source_line: 1, gen_throughput: 49.5, running: 4, stats_lines: 100, engine: 'vllm', time: '2026-01-01T00:00:00.000' });
    expect(a[99]).toMatchObject({ source_line: 9901, gen_throughput: 9949.5, stats_lines: 100 });
    expect(out.filter((r) => r.source_file === 'b.log')).toEqual(log('b.log', 50));
  });

  it('bins a log without time stamps by position', () => {
    const out = binTimelineRows(arraySource(log('a.log', 1000, false)), 10);
    expect(out.map((r) => r.gen_throughput)).toEqual([49.5, 149.5, 249.5, 349.5, 449.5, 549.5, 649.5, 749.5, 849.5, 949.5]);
    expect(out.every((r) => r.time === null)).toBe(true);
  });

  it('reads the source a cell at a time, building only the rows it keeps, never needing them as an array', () => {
    const rows = log('a.log', 5000);
    const columns = Object.keys(rows[0] as Row);
    let built = 0;
    const source = { length: rows.length, row: (i: number) => (built++, rows[i] as Row), cell: (i: number, c: string) => rows[i]?.[c], columns };
    const out = binTimelineRows(source, 50);
    expect(out).toEqual(binTimelineRows(arraySource(rows), 50));
    expect(out).toHaveLength(50);
    // the first row of each bin, nothing else
    expect(built).toBe(50);
  });

  it('a chart of a log of 20,000 stats lines draws at most the limit per series, naming the lines a point stands for', () => {
    const result = serverTimeline(log('serve.log', 20_000), {});
    if (!result.ok) throw new Error(result.reason);
    const data = (result.spec as { data: { values: { series: string; line: string }[] } }).data.values;
    expect(data.filter((d) => d.series === 'gen_throughput')).toHaveLength(MAX_POINTS);
    expect(data.filter((d) => d.series === 'running')).toHaveLength(MAX_POINTS);
    expect(data[0]?.line).toBe('serve.log:1 (+19 more)');
  });
});
