import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../../src/analyze/filter.js';
import { CHARTS } from '../../src/charts/catalogue.js';
import type { FieldValue } from '../../src/core/types.js';
import { buildReport } from '../../src/report/build-report.js';
import { chartRows, MAX_CHART_PARTS, type ReportFigure } from '../../src/report/figures.js';
import { loadTables } from '../../src/report/tables.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-parts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const METHODS = [['none', null], ['eagle3', 2], ['eagle3', 4], ['ngram', 3], ['medusa', 2]] as const;

/**
 * A campaign of `models` models, each with a baseline and four speculative configurations (three
 * methods) at two concurrencies, at each tp of `tps` (its `tpN/` folder). Every file has its own
 * TTFT: results alike to the millisecond would be one result saved twice (dedupe-runs.ts).
 */
function writeCampaign(models: number, tps: readonly number[] = [1]): string {
  const dir = path.join(tmp, `models-${models}-tp-${tps.length}`);
  for (const [i, [method, k]] of METHODS.entries())
    for (const tp of tps) {
      const sub = path.join(dir, `tp${tp}`, k === null ? method : `${method}-k${k}`);
      mkdirSync(sub, { recursive: true });
      for (let m = 0; m < models; m++)
        for (const c of [1, 8]) {
          const tput = 100 * c * (1 + m / 10) * (1 + (i * (1 + m)) / 20) * tp; // speedups of model m up to 1 + (1 + m) / 5
          const result = { date: '20260301-100000', backend: 'vllm', model_id: `org/model-${m}`, max_concurrency: c, duration: 60, completed: 100, failed: 0, total_input_tokens: 1000, total_output_tokens: 500, request_throughput: 1.6, output_throughput: tput, total_token_throughput: 3 * tput, mean_ttft_ms: 20 * c + i + 10 * tp + 100 * m, mean_tpot_ms: 1000 / tput, mean_e2el_ms: 500 };
          writeFileSync(path.join(sub, `m${m}-c${c}.json`), JSON.stringify(result));
        }
    }
  return dir;
}

interface HeatmapPanel {
  readonly title: unknown;
  readonly data: { readonly values: readonly { readonly dark: boolean }[] };
  readonly layer: readonly { readonly encoding: { readonly color?: { readonly scale?: { readonly domain?: unknown } } } }[];
}

/** Each panel's title and cells (whether a cell's label is white depends on the colour scale: left out). */
function panelsOf(spec: unknown): unknown[] {
  // as JSON: rendering marks the cells with Vega's own symbols
  const panels = (JSON.parse(JSON.stringify(spec)) as { concat: HeatmapPanel[] }).concat;
  return panels.map((p) => ({ title: p.title, cells: p.data.values.map(({ dark: _dark, ...cell }) => cell) }));
}

function colourDomain(spec: unknown): unknown {
  return (spec as { concat: HeatmapPanel[] }).concat[0]?.layer[0]?.encoding.color?.scale?.domain;
}

const ofChart = (figures: readonly ReportFigure[], id: string): ReportFigure[] => figures.filter((f) => f.id === id || f.id.startsWith(`${id}-part-`));

describe('a report of a campaign too large for one chart', () => {
  it('draws a crowded chart in parts, one per model, each what plot --filter draws', async () => {
    // 9 models × 3 methods = 27 heatmap panels (at most 24); 9 × 5 configurations = 45 lines (at most 30)
    const tables = await loadTables([writeCampaign(9)], {}, undefined);
    const report = await buildReport(tables, 'campaign');
    const heatmap = ofChart(report.figures, 'speedup-heatmap');
    expect(heatmap.map((f) => [f.id, f.drawn])).toEqual([['speedup-heatmap', false], ...Array.from({ length: 9 }, (_, i) => [`speedup-heatmap-part-0${i + 1}`, true])]);
    const [whole, ...parts] = heatmap;
    expect(whole?.drawn === false && whole.parts).toBe('9 parts, by model');
    expect(report.html).toContain('Speedup heatmap: not drawn whole (27 panels, too many to read in one chart (at most 24); draw a part of them with benchlens plot --chart speedup-heatmap --filter model=org/model-0); below in 9 parts, by model.');
    const rows = chartRows(tables, 'speedup-heatmap');
    const wholeChart = CHARTS['speedup-heatmap'].build(rows, { baseline: { spec_method: 'none' } });
    if (!wholeChart.ok) throw new Error(wholeChart.reason);
    // model 8 reaches 2.8×, model 0 1.2×: each part is coloured as the whole, not on its own range
    expect(colourDomain(wholeChart.spec)).toEqual([0.357, 2.8]);
    for (const [i, part] of parts.entries()) {
      if (!part.drawn) throw new Error(part.reason);
      expect(part.title).toBe(`Speedup heatmap (model=org/model-${i})`);
      // the part's cells are those plot draws of the rows its filter keeps, coloured on the whole chart's scale
      const kept = rows.filter((r) => matchesFilter(r as Readonly<Record<string, FieldValue>>, parseFilter(`model=org/model-${i}`)));
      const alone = CHARTS['speedup-heatmap'].build(kept, { baseline: { spec_method: 'none' } });
      if (!alone.ok) throw new Error(alone.reason);
      expect(panelsOf(part.spec)).toEqual(panelsOf(alone.spec));
      expect(colourDomain(part.spec)).toEqual(colourDomain(wholeChart.spec));
      expect(JSON.stringify(part.spec)).toContain(`"subtitle":"model: org/model-${i}"`);
      expect(report.html).toContain(`id="fig-speedup-heatmap-part-0${i + 1}"`);
      expect(report.markdown).toContain(`(figures/speedup-heatmap-part-0${i + 1}.svg)`);
    }
    // the lines of 45 configurations too
    expect(ofChart(report.figures, 'metric-lines-output_throughput').filter((f) => f.drawn)).toHaveLength(9);
  });

  it('cuts by the next column when one model is still crowded, and names it under the title', async () => {
    const tables = await loadTables([writeCampaign(1, [1, 2, 3, 4, 5, 6, 7, 8, 9])], {}, undefined); // 27 panels of one model
    const report = await buildReport(tables, 'campaign');
    const parts = ofChart(report.figures, 'speedup-heatmap').slice(1);
    expect(parts.map((f) => f.title)).toEqual(Array.from({ length: 9 }, (_, i) => `Speedup heatmap (tp=${i + 1})`));
    const third = parts[2];
    expect(third?.drawn === true && JSON.stringify(third.spec)).toContain('"subtitle":"model: org/model-0 · tp=3"');
  });

  it(`leaves a crowded chart out when it takes more than ${MAX_CHART_PARTS} parts`, async () => {
    const tables = await loadTables([writeCampaign(13)], {}, undefined); // 39 panels, 13 models
    const report = await buildReport(tables, 'campaign');
    const heatmap = ofChart(report.figures, 'speedup-heatmap');
    expect(heatmap.map((f) => [f.id, f.drawn])).toEqual([['speedup-heatmap', false]]);
    expect(heatmap[0]?.drawn === false && heatmap[0].parts).toBeUndefined();
    expect(report.html).toContain('Speedup heatmap: not drawn (39 panels, too many to read in one chart (at most 24); draw a part of them with benchlens plot --chart speedup-heatmap --filter model=org/model-0).');
  });
});
