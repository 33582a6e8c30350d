import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { loadTables } from '../../src/report/tables.js';

/**
 * Issue 5's acceptance: on a speculative-decoding sweep the report's heatmap shows, in every cell,
 * the speedup the comparison computed for that method, K and concurrency — checked against the
 * comparison rows, not against the chart's own data.
 */
describe('speedup heatmap of the sweep report', () => {
  it('has one cell per compared run, each equal to the computed speedup', async () => {
    const tables = await loadTables(['fixtures/_suites/spec-decode-sweep'], {}, 'spec_method=none');
    const report = await buildReport(tables, 'sweep');
    const heatmap = report.figures.find((f) => f.id === 'speedup-heatmap');
    expect(heatmap?.drawn).toBe(true);
    const svg = heatmap?.drawn ? heatmap.svg : '';
    const cells = new Map<string, number>();
    for (const m of svg.matchAll(/aria-label="max_concurrency: (\d+); K: (\d+); speedup: [^;]+; spec_method: (\w+); num_spec_tokens: \d+; speedup_output_throughput: ([\d.]+);/g)) {
      cells.set(`${m[3]}/${m[2]}/${m[1]}`, Number(m[4]));
    }
    const expected = new Map<string, number>();
    for (const r of tables.comparison) {
      if (r.pair_status !== 'ok') continue;
      expected.set(`${r.spec_method}/${r.num_spec_tokens}/${r.max_concurrency}`, Number(r.speedup_output_throughput));
    }
    expect(expected.size).toBe(14);
    expect([...cells.keys()].sort()).toEqual([...expected.keys()].sort());
    // the cell prints 3 decimals of the (geometric-mean) speedup
    for (const [key, value] of expected) expect(Math.abs((cells.get(key) ?? Number.NaN) - value)).toBeLessThanOrEqual(0.0006);
  });
});
