import { describe, expect, it } from 'vitest';
import { runBands } from '../../src/charts/run-bands.js';
import { serverTimeline } from '../../src/charts/server-timeline.js';

const runs = [
  { run_id: 'a', source_file: 'c1.json', source_line: 1, max_concurrency: 1 },
  { run_id: 'b', source_file: 'c8.json', source_line: 1, max_concurrency: 8 },
];

describe('runBands', () => {
  it("spans each run from one stats interval before its first line (the interval that line reports) to its last, runs back to back shaded apart", () => {
    const lines = [
      { t: 0, runId: null },
      { t: 10, runId: 'a' },
      { t: 20, runId: 'a' },
      { t: 30, runId: null },
      { t: 40, runId: 'b' },
      { t: 50, runId: 'b' },
      { t: 60, runId: 'b' },
    ];
    expect(runBands(lines, runs)).toEqual([
      { t0: 0, t1: 20, mid: 10, load: 'c=1', run: 'c1.json:1', shade: 0 },
      { t0: 30, t1: 60, mid: 45, load: 'c=8', run: 'c8.json:1', shade: 1 },
    ]);
  });

  it('labels rates by their rate, and a run the runs table lacks by its id alone', () => {
    const rated = [
      { run_id: 'a', source_file: 'r1.json', source_line: 1, request_rate: 2 },
      { run_id: 'b', source_file: 'r2.json', source_line: 1, request_rate: 4 },
    ];
    expect(runBands([{ t: 5, runId: 'a' }, { t: 10, runId: 'b' }], rated).map((b) => b.load)).toEqual(['2 req/s', '4 req/s']);
    expect(runBands([{ t: 5, runId: 'z' }], rated)).toEqual([{ t0: 5, t1: 5, mid: 5, load: '', run: 'z', shade: 0 }]);
  });
});

describe('serverTimeline with the runs a log served', () => {
  const row = (second: number, running: number, runId: string | null) => ({ source_file: 'serve.log', source_line: second, time: `2025-11-02T10:00:${String(second).padStart(2, '0')}`, gen_throughput: 10 * running, running, run_id: runId });
  const rows = [row(0, 0, null), row(10, 1, 'a'), row(20, 1, 'a'), row(30, 0, null), row(40, 8, 'b')];

  it('shades the runs behind every panel, labelled with their load in the top one, on one time axis', () => {
    const result = serverTimeline(rows, { runs });
    if (!result.ok) throw new Error(result.reason);
    const spec = result.spec as unknown as { vconcat: { layer: { mark: { type: string }; data?: { values: { load: string }[] } }[] }[]; resolve: unknown };
    expect(spec.vconcat.map((p) => p.layer.map((l) => l.mark.type))).toEqual([
      ['rect', 'text', 'line'],
      ['rect', 'line'],
    ]);
    expect(spec.vconcat[0]?.layer[1]?.data?.values.map((b) => b.load)).toEqual(['c=1', 'c=8']);
    expect(spec.resolve).toEqual({ scale: { color: 'independent', x: 'shared' } });
  });

  it('shades nothing for two logs (their runs would overlap on one time axis) or without run ids', () => {
    const twoLogs = [...rows, { ...row(10, 2, 'c'), source_file: 'other.log' }];
    for (const given of [twoLogs, rows.map((r) => ({ ...r, run_id: null }))]) {
      const result = serverTimeline(given, { runs });
      if (!result.ok) throw new Error(result.reason);
      expect(JSON.stringify(result.spec)).not.toContain('"rect"');
    }
  });
});
