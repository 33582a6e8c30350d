import { describe, expect, it } from 'vitest';
import { serverTimeline } from '../../src/charts/server-timeline.js';
import { binByTime, MAX_POINTS } from '../../src/charts/time-bins.js';
import type { Row } from '../../src/charts/types.js';

const values = (key: string, n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => ({ key, t: at(i), value: i, line: `${key}.log:${i + 1}` }));

describe('time bins for long timelines', () => {
  it('leaves a series of at most the limit as it is', () => {
    const v = values('a', 100, (i) => i);
    expect(binByTime(v, 100)).toEqual(v);
  });

  it('draws a longer series as equal time bins at the mean of their lines, each series on its own', () => {
    const out = binByTime([...values('a', 10_000, (i) => i), ...values('b', 50, (i) => i * 200)], 100);
    const a = out.filter((v) => v.key === 'a');
    expect(a).toHaveLength(100);
    expect(a[0]).toEqual({ key: 'a', t: 0, value: 49.5, line: 'a.log:1 (+99 more)' });
    // the last bin also holds the last line (its time is the end of the span)
    expect(a[99]).toMatchObject({ t: 9999 * 0.99, line: 'a.log:9901 (+99 more)', value: 9949.5 });
    expect(out.filter((v) => v.key === 'b')).toHaveLength(50);
  });

  it('bins lines without a clock by count', () => {
    const out = binByTime(values('a', 1000, () => 5), 10);
    expect(out).toHaveLength(10);
    expect(out.map((v) => v.value)).toEqual([49.5, 149.5, 249.5, 349.5, 449.5, 549.5, 649.5, 749.5, 849.5, 949.5]);
  });

  it('a log of 20,000 stats lines draws at most the limit per series', () => {
    const rows: Row[] = Array.from({ length: 20_000 }, (_, i) => ({
      source_file: 'serve.log',
      source_line: i + 1,
      time: new Date(Date.UTC(2026, 0, 1) + i * 500).toISOString().slice(0, 19),
      gen_throughput: 1000 + (i % 7),
      running: i % 64,
    }));
    const result = serverTimeline(rows, {});
    if (!result.ok) throw new Error(result.reason);
    const data = (result.spec as { data: { values: { series: string }[] } }).data.values;
    expect(data.filter((d) => d.series === 'gen_throughput')).toHaveLength(MAX_POINTS);
    expect(data.filter((d) => d.series === 'running')).toHaveLength(MAX_POINTS);
  });
});
