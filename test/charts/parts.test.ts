import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../../src/analyze/filter.js';
import { metricLines } from '../../src/charts/metric-lines.js';
import { filterText, legibleParts } from '../../src/charts/parts.js';
import { speedupHeatmap } from '../../src/charts/speedup-heatmap.js';
import { speedupLines } from '../../src/charts/speedup-lines.js';
import type { ChartResult, Row } from '../../src/charts/types.js';
import type { FieldValue } from '../../src/core/types.js';
import { campaign, sampleComparison, sampleRuns } from './sample-rows.js';

const legible = (r: ChartResult): boolean => r.ok && r.crowded === undefined;

/** The rows `benchlens plot --filter <terms>` keeps. */
function plotRows(rows: readonly Row[], filter: string): Row[] {
  const parsed = parseFilter(filter);
  return rows.filter((r) => matchesFilter(r as Readonly<Record<string, FieldValue>>, parsed));
}

describe('a crowded chart cut into legible parts', () => {
  it('cuts a heatmap of 28 panels into one part per model, each what plot --filter draws', () => {
    const rows = campaign(sampleComparison, 7, [1, 2]); // 2 methods × 7 models × 2 tp
    const build = (part: readonly Row[]): ChartResult => speedupHeatmap(part, {});
    expect(legible(build(rows))).toBe(false);
    const parts = legibleParts(rows, build, 12);
    expect(parts?.map((p) => filterText(p.terms))).toEqual(Array.from({ length: 7 }, (_, m) => `model=org/model-${m}`));
    for (const part of parts ?? []) {
      expect(legible(part.result)).toBe(true);
      expect(part.rows).toEqual(plotRows(rows, filterText(part.terms)));
      expect(part.result).toEqual(build(plotRows(rows, filterText(part.terms))));
    }
  });

  it('cuts a part further only while it is crowded, on as many columns as it takes', () => {
    // model 0 with 9 tp (36 lines), model 1 with one tp (4 lines)
    const rows = [...campaign(sampleRuns, 1, [1, 2, 3, 4, 5, 6, 7, 8, 9]), ...campaign(sampleRuns, 2, [1]).filter((r) => r.model === 'org/model-1')];
    const parts = legibleParts(rows, (part) => metricLines(part, {}), 12);
    expect(parts?.map((p) => filterText(p.terms))).toEqual([...Array.from({ length: 9 }, (_, i) => `model=org/model-0,tp=${i + 1}`), 'model=org/model-1']);
    expect(parts?.every((p) => legible(p.result))).toBe(true);
  });

  it('puts every row in exactly one part, the rows without a value in a part of their own', () => {
    const rows = campaign(sampleRuns, 8, [1]).map((r) => (r.model === 'org/model-7' ? { ...r, model: null } : r));
    const parts = legibleParts(rows, (part) => metricLines(part, {}), 12) ?? [];
    expect(parts.map((p) => filterText(p.terms)).at(-1)).toBe('model=null');
    expect(parts.flatMap((p) => p.rows).length).toBe(rows.length);
    expect(new Set(parts.flatMap((p) => p.rows)).size).toBe(rows.length);
    // `null` in a --filter selects the rows without a value, as the part holds them
    for (const part of parts) expect(part.rows).toEqual(plotRows(rows, filterText(part.terms)));
  });

  it('gives up when the parts would be more than asked for, or a part cannot be cut any further', () => {
    const rows = campaign(sampleComparison, 7, [1, 2]);
    expect(legibleParts(rows, (part) => speedupHeatmap(part, {}), 6)).toBeNull();
    // 144 lines at 30 a chart take 5 parts at least: known from the whole chart, no part drawn
    let builds = 0;
    const counted = (part: readonly Row[]): ChartResult => {
      builds++;
      return metricLines(part, {});
    };
    const many = campaign(sampleRuns, 9, [1, 2, 3, 4]);
    expect(metricLines(many, {})).toMatchObject({ ok: true, minParts: 5 });
    expect(legibleParts(many, counted, 4)).toBeNull();
    expect(builds).toBe(1);
    expect(legibleParts(many, counted, 12)?.length).toBe(9);
    // a chart crowded by something no column cuts: splitting by every column leaves it crowded
    const crowded: ChartResult = { ok: true, spec: {} as TopLevelSpec, crowded: 'crowded', minParts: 2 };
    expect(legibleParts(campaign(sampleRuns, 2, [1, 2]), () => crowded, 1000)).toBeNull();
  });

  it('draws a part on the speedup scale of the whole chart when given its rows', () => {
    const rows = campaign(sampleComparison, 2, [1]).map((r) => (r.model === 'org/model-1' && typeof r.speedup_output_throughput === 'number' ? { ...r, speedup_output_throughput: r.speedup_output_throughput * 2 } : r));
    const part = rows.filter((r) => r.model === 'org/model-0');
    const yScale = (r: ChartResult): unknown => (r.ok ? (r.spec as { layer: { encoding: { y: { scale: unknown } } }[] }).layer[0]?.encoding.y.scale : r.reason);
    const speedups = rows.map((r) => r.speedup_output_throughput).filter((v): v is number => typeof v === 'number');
    expect(yScale(speedupLines(part, {}))).toEqual({ zero: false });
    expect(yScale(speedupLines(part, { scaleRows: rows }))).toEqual({ zero: false, nice: true, domain: [Math.min(1, ...speedups), Math.max(...speedups)] });
    const heat = (r: ChartResult): unknown => (r.ok ? JSON.stringify(r.spec).match(/"domain":\[[^\]]*\]/)?.[0] : r.reason);
    expect(heat(speedupHeatmap(part, { scaleRows: rows }))).toBe(heat(speedupHeatmap(rows, {})));
    expect(heat(speedupHeatmap(part, {}))).not.toBe(heat(speedupHeatmap(rows, {})));
  });

  it('leaves a chart that is not crowded whole', () => {
    const rows = sampleRuns();
    expect(legibleParts(rows, (part) => metricLines(part, {}), 12)?.map((p) => p.terms)).toEqual([[]]);
  });
});
