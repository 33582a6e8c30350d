import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'vega';
import { describe, expect, it } from 'vitest';
import { headlineMetric } from '../../src/analyze/headline-metric.js';
import { CHART_IDS, CHARTS } from '../../src/charts/catalogue.js';
import type { ChartInput, Row } from '../../src/charts/types.js';
import { chartRows } from '../../src/report/figures.js';
import { loadTables } from '../../src/report/tables.js';
import { compileSpec } from '../../src/render/compile.js';
import { vlJson } from '../../src/render/vl-json.js';
import { sampleComparison, sampleRuns, sampleTimeline } from './sample-rows.js';

const SAMPLE: Record<ChartInput, Row[]> = { runs: sampleRuns(), comparison: sampleComparison(), timeline: sampleTimeline() };
const SUITES_DIR = path.resolve('fixtures/_suites');
const SUITES = readdirSync(SUITES_DIR)
  .filter((d) => statSync(path.join(SUITES_DIR, d)).isDirectory())
  .sort();

describe('chart catalogue on rows built in code', () => {
  for (const id of CHART_IDS) {
    it(`${id}: compiles with zero Vega-Lite warnings and matches its spec golden`, async () => {
      const def = CHARTS[id];
      expect(def.id).toBe(id);
      const result = def.build(SAMPLE[def.input], { baseline: { spec_method: 'none' }, caption: 'vllm 0.11.0 · model: acme/tiny-8b' });
      if (!result.ok) throw new Error(result.reason);
      const compiled = compileSpec(result.spec);
      expect(compiled.warnings).toEqual([]);
      expect(() => parse(compiled.vega)).not.toThrow();
      await expect(vlJson(result.spec)).toMatchFileSnapshot(`__golden__/${id}.vl.json`);
    });
  }

  it('every chart declines empty input with a reason instead of drawing nothing', () => {
    for (const id of CHART_IDS) {
      const result = CHARTS[id].build([], {});
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
    }
  });
});

describe.each(SUITES)('chart catalogue on fixture suite %s', (suite) => {
  it('every chart the suite supports compiles with zero Vega-Lite warnings', async () => {
    const tables = await loadTables([path.join(SUITES_DIR, suite)], {}, undefined);
    expect(tables.runs.length).toBeGreaterThan(0);
    let drawn = 0;
    for (const id of CHART_IDS) {
      // the metric a report of the suite leads with (a latency benchmark's has no throughput)
      const result = CHARTS[id].build(chartRows(tables, id), { baseline: { spec_method: 'none' }, metric: headlineMetric(tables.runs) });
      if (!result.ok) continue;
      drawn++;
      expect({ id, warnings: compileSpec(result.spec).warnings }).toEqual({ id, warnings: [] });
    }
    expect(drawn).toBeGreaterThan(0);
  });
});
