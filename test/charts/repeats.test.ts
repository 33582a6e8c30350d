import { describe, expect, it } from 'vitest';
import { acceptancePosition } from '../../src/charts/acceptance-position.js';
import { metricLines } from '../../src/charts/metric-lines.js';
import { paretoChart } from '../../src/charts/pareto.js';
import { combineRepeats } from '../../src/charts/repeats.js';
import type { Row } from '../../src/charts/types.js';

/** `repeats` runs of one configuration at each concurrency, throughput base·c·(1 + spread·k). */
function sweep(method: string, base: number, repeats: number, spread = 0.1): Row[] {
  return [1, 4, 16].flatMap((c) =>
    Array.from({ length: repeats }, (_, k): Row => ({
      source_file: `runs/${method}-c${c}-r${k}.json`,
      source_line: 1,
      label: null,
      spec_method: method,
      max_concurrency: c,
      output_throughput: base * c * (1 + spread * k),
      output_throughput_per_user: base * (1 + spread * k),
    })),
  );
}

interface Datum {
  series: string;
  x: number;
  y: number;
  y_min?: number;
  y_max?: number;
  runs: number;
  concurrency?: number | null;
  source: string;
}

function chartData(spec: unknown): Datum[] {
  return (spec as { data: { values: Datum[] } }).data.values;
}

function layers(spec: unknown): { mark: { type: string } }[] {
  return (spec as { layer: { mark: { type: string } }[] }).layer;
}

describe('repeats in charts', () => {
  it('combines each key into its median and range, the first repeat by file then line number', () => {
    const combined = combineRepeats([
      { key: 'b', values: [9, 90], source: 'x.log:10' },
      { key: 'a', values: [1, 10], source: 'x.log:9' },
      { key: 'b', values: [1, 10], source: 'x.log:9' },
      { key: 'b', values: [2, 20], source: 'w.log:100' },
    ]);
    // the median, as the comparison combines repeats (one slow repeat does not drag the point)
    expect(combined.map((c) => [c.first.key, c.runs, c.median, c.min, c.max, c.source])).toEqual([
      ['a', 1, [1, 10], [1, 10], [1, 10], 'x.log:9'],
      ['b', 3, [2, 20], [1, 10], [9, 90], 'w.log:100 (+2 more)'],
    ]);
  });

  it('metric lines: one point per configuration and concurrency, at the median, with a bar over the repeats', () => {
    const result = metricLines([...sweep('none', 100, 3), ...sweep('eagle3', 150, 3)], { y: 'output_throughput' });
    if (!result.ok) throw new Error(result.reason);
    const data = chartData(result.spec);
    expect(data).toHaveLength(6);
    const eagleAt4 = data.find((d) => d.series === 'eagle3' && d.x === 4);
    expect(eagleAt4).toMatchObject({ runs: 3, y_min: 600, y_max: 720, source: 'runs/eagle3-c4-r0.json:1 (+2 more)' });
    expect(eagleAt4?.y).toBeCloseTo(660, 9);
    expect(layers(result.spec).filter((l) => l.mark.type === 'rule')).toHaveLength(2);
  });

  it('metric lines without repeats draw no range bars and keep the plain tooltip', () => {
    const result = metricLines(sweep('none', 100, 1), { y: 'output_throughput' });
    if (!result.ok) throw new Error(result.reason);
    expect(chartData(result.spec)).toHaveLength(3);
    expect(layers(result.spec).some((l) => l.mark.type === 'rule')).toBe(false);
    expect(JSON.stringify(result.spec)).not.toContain('median of repeats');
  });

  it('metric lines name the dashed baseline only when some run is one', () => {
    const none = metricLines(sweep('eagle3', 100, 1), { y: 'output_throughput', baseline: { spec_method: 'none' } });
    const some = metricLines([...sweep('none', 100, 1), ...sweep('eagle3', 150, 1)], { y: 'output_throughput', baseline: { spec_method: 'none' } });
    if (!none.ok || !some.ok) throw new Error('no chart');
    expect(JSON.stringify(none.spec)).not.toContain('baseline dashed');
    expect(JSON.stringify(some.spec)).toContain('baseline dashed');
  });

  it('a campaign of thousands of repeats still draws one mark per configuration and concurrency', () => {
    const result = metricLines(sweep('none', 100, 2000, 0.0001), { y: 'output_throughput' });
    if (!result.ok) throw new Error(result.reason);
    expect(chartData(result.spec)).toHaveLength(3);
  });

  it('pareto: repeats of a configuration at one concurrency are one point at their median; runs without a concurrency stand alone', () => {
    const loose: Row[] = [1, 2].map((k) => ({ source_file: `loose-${k}.json`, source_line: 1, label: null, spec_method: 'none', output_throughput: 50 * k, output_throughput_per_user: 5 * k }));
    const result = paretoChart([...sweep('none', 100, 3), ...loose], { y: 'output_throughput' });
    if (!result.ok) throw new Error(result.reason);
    const points = (result.spec as { layer: { data: { values: Datum[] } }[] }).layer[1]?.data.values ?? [];
    expect(points).toHaveLength(5);
    expect(points.filter((p) => p.runs === 3)).toHaveLength(3);
    const at16 = points.find((p) => p.concurrency === 16);
    expect(at16?.x).toBeCloseTo(110, 9);
    expect(at16?.y).toBeCloseTo(1760, 9);
  });

  it('acceptance per position: repeats of a configuration are one line at their median', () => {
    const rows: Row[] = [0.7, 0.8, 0.9].map((first, k) => ({ source_file: `eagle-r${k}.json`, source_line: 1, label: null, spec_method: 'eagle3', max_concurrency: 8, spec_per_position_acceptance: [first, first / 2] }));
    const result = acceptancePosition(rows, {});
    if (!result.ok) throw new Error(result.reason);
    const data = (result.spec as { data: { values: { position: number; acceptance: number; runs?: number }[] } }).data.values;
    expect(data.map((d) => d.position)).toEqual([1, 2]);
    expect(data[0]?.acceptance).toBeCloseTo(0.8, 9);
    expect(data[1]?.acceptance).toBeCloseTo(0.4, 9);
    expect(data[0]?.runs).toBe(3);
  });
});
