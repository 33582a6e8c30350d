import { describe, expect, it } from 'vitest';
import { acceptancePosition } from '../../src/charts/acceptance-position.js';
import { CHARTS } from '../../src/charts/catalogue.js';
import { matchesFilter } from '../../src/charts/fields.js';
import { LEGIBLE } from '../../src/charts/legibility.js';
import { ladderChart } from '../../src/charts/ladder.js';
import { metricLines } from '../../src/charts/metric-lines.js';
import { speedupHeatmap } from '../../src/charts/speedup-heatmap.js';
import { serverTimeline } from '../../src/charts/server-timeline.js';
import { speedupLines } from '../../src/charts/speedup-lines.js';
import type { ChartResult, Row } from '../../src/charts/types.js';
import { campaign, sampleComparison, sampleRuns, sampleTimeline } from './sample-rows.js';

/** Why a chart is crowded; it is drawn all the same (for `plot`), a report leaves it out. */
function reasonOf(r: ChartResult): string {
  if (!r.ok) throw new Error(r.reason);
  if (r.crowded === undefined) throw new Error('not crowded');
  return r.crowded;
}

/** Drawn, and not crowded. */
function legible(r: ChartResult): boolean {
  return r.ok && r.crowded === undefined;
}

/** The rows a `--filter a=b,c=d` hint keeps. */
function filtered(rows: readonly Row[], reason: string): Row[] {
  const hint = /--filter (\S+)$/.exec(reason)?.[1] ?? '';
  const terms = Object.fromEntries(hint.split(',').map((t) => t.split('=') as [string, string]));
  return rows.filter((r) => matchesFilter(r, terms));
}

describe('charts too large to read', () => {
  it('calls metric lines of more than 30 configurations crowded, and names a filter that draws a part', () => {
    const runs = campaign(sampleRuns, 2, [1, 2, 4, 8]); // 4 methods × 2 models × 4 tp = 32 lines
    const reason = reasonOf(metricLines(runs, {}));
    expect(reason).toBe(`32 configurations, too many to read in one chart (at most ${LEGIBLE.series}); draw a part of them with benchlens plot --chart metric-lines --filter model=org/model-0`);
    expect(legible(metricLines(filtered(runs, reason), {}))).toBe(true);
    expect(legible(metricLines(campaign(sampleRuns, 2, [1, 2, 4]), {}))).toBe(true); // 24 lines
  });

  it('splits on as many columns as it takes', () => {
    const runs = campaign(sampleRuns, 9, [1, 2, 4, 8]); // 144 lines; one model: 16
    const reason = reasonOf(metricLines(runs, {}));
    expect(reason).toMatch(/^144 configurations, .* --filter model=org\/model-0$/);
    const big = campaign(sampleRuns, 1, Array.from({ length: 9 }, (_, i) => i + 1)); // one model, 9 tp: 36 lines
    const split = reasonOf(metricLines(big, {}));
    expect(split).toMatch(/--filter tp=1$/);
    expect(legible(metricLines(filtered(big, split), {}))).toBe(true);
  });

  it('draws a line per tp in speedup lines, never one line through two configurations', () => {
    const rows = campaign(sampleComparison, 1, [1, 2]);
    const r = speedupLines(rows, {});
    if (!r.ok) throw new Error(r.reason);
    const points = (r.spec as { layer: { data: { values: { series: string; x: number }[] } }[] }).layer[0]?.data.values ?? [];
    const series = [...new Set(points.map((p) => p.series))];
    expect(series).toEqual(['eagle3 K=2 tp=1', 'eagle3 K=2 tp=2', 'eagle3 K=4 tp=1', 'eagle3 K=4 tp=2', 'ngram K=3 tp=1', 'ngram K=3 tp=2']);
    for (const s of series) expect(new Set(points.filter((p) => p.series === s).map((p) => p.x)).size).toBe(points.filter((p) => p.series === s).length);
    expect(JSON.stringify(r.spec)).toContain('"title":"configuration"');
    expect(reasonOf(speedupLines(campaign(sampleComparison, 4, [1, 2, 4]), {}))).toMatch(/^36 configurations, .* --chart speedup-lines --filter model=org\/model-0$/);
  });

  it('gives the heatmap a panel per tp instead of averaging them as repeats, and calls more than 24 panels crowded', () => {
    const rows = campaign(sampleComparison, 1, [1, 2]);
    const r = speedupHeatmap(rows, {});
    if (!r.ok) throw new Error(r.reason);
    const panels = (r.spec as { concat: { title: { text: string }; data: { values: { runs: number }[] } }[] }).concat;
    expect(panels.map((p) => p.title.text)).toEqual(['eagle3 · tp=1', 'eagle3 · tp=2', 'ngram · tp=1', 'ngram · tp=2']);
    expect(panels.flatMap((p) => p.data.values.map((c) => c.runs)).every((n) => n <= 1)).toBe(true);
    const many = campaign(sampleComparison, 7, [1, 2]); // 2 methods × 14 = 28 panels
    const reason = reasonOf(speedupHeatmap(many, {}));
    expect(reason).toBe(`28 panels, too many to read in one chart (at most ${LEGIBLE.panels}); draw a part of them with benchlens plot --chart speedup-heatmap --filter model=org/model-0`);
    expect(legible(speedupHeatmap(filtered(many, reason), {}))).toBe(true);
  });

  it('calls a ladder of more than 160 bars crowded', () => {
    const rows = campaign(sampleComparison, 6, [1, 2, 4]); // 15 pairs × 18 = 270 bars and their baselines
    const reason = reasonOf(ladderChart(rows, {}));
    expect(reason).toMatch(/^\d[\d,]* bars, too many to read in one chart \(at most 160\); draw a part of them with benchlens plot --chart ladder --filter model=org\/model-0$/);
    expect(legible(ladderChart(filtered(rows, reason), {}))).toBe(true);
  });

  it('is said of every chart of the catalogue that draws a line, panel or bar per configuration', () => {
    const runs = campaign(sampleRuns, 12, [1, 2, 4, 8]);
    const pairs = campaign(sampleComparison, 12, [1, 2, 4, 8]);
    const crowded = Object.values(CHARTS)
      .filter((def) => def.input !== 'timeline')
      .filter((def) => {
        const r = def.build(def.input === 'runs' ? runs : pairs, {});
        return r.ok && r.crowded !== undefined;
      })
      .map((def) => def.id);
    // acceptance vs speedup colours its points by method alone
    expect(crowded).toEqual(['speedup-heatmap', 'speedup-lines', 'metric-lines', 'pareto', 'ladder', 'acceptance-position', 'turn-lines']);
  });
});

describe('server timeline of many logs', () => {
  it('calls more than 30 logs crowded, naming one to draw', () => {
    const logs = (n: number): Row[] => Array.from({ length: n }, (_, i) => sampleTimeline().map((r) => ({ ...r, source_file: `logs/serve-${String(i).padStart(2, '0')}.log` }))).flat();
    expect(legible(serverTimeline(logs(30), {}))).toBe(true);
    expect(reasonOf(serverTimeline(logs(31), {}))).toBe('31 logs, too many to read in one chart (at most 30); draw a part of them with benchlens plot --chart server-timeline --filter source_file=logs/serve-00.log');
  });
});

describe('acceptance per draft position of many configurations', () => {
  it('calls more than 30 lines (one per configuration and concurrency) crowded, naming a part that draws', () => {
    const runs = campaign(sampleRuns, 1, [1, 2, 4]); // 3 methods with arrays × 4 concurrencies × 3 tp = 36 lines
    const reason = reasonOf(acceptancePosition(runs, {}));
    expect(reason).toMatch(/^36 configurations, .* --chart acceptance-position --filter tp=1$/);
    expect(legible(acceptancePosition(filtered(runs, reason), {}))).toBe(true);
  });
});

describe('the part a crowded chart names', () => {
  it('draws the same metric', () => {
    const reason = reasonOf(metricLines(campaign(sampleRuns, 2, [1, 2, 4, 8]), { y: 'mean_tpot_ms' }));
    expect(reason).toContain('benchlens plot --chart metric-lines --y mean_tpot_ms --filter model=org/model-0');
    // a metric other than the default is said; the default is not
    expect(reasonOf(speedupLines(campaign(sampleComparison, 4, [1, 2, 4]), { metric: 'mean_tpot_ms' }))).toContain('--chart speedup-lines --metric mean_tpot_ms --filter model=org/model-0');
    expect(reasonOf(speedupLines(campaign(sampleComparison, 4, [1, 2, 4]), { metric: 'output_throughput' }))).toContain('--chart speedup-lines --filter model=org/model-0');
  });
});
