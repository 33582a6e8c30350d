import { describe, expect, it } from 'vitest';
import { metricLines } from '../../src/charts/metric-lines.js';
import { paretoChart } from '../../src/charts/pareto.js';
import type { Row } from '../../src/charts/types.js';
import { renderSvg } from '../../src/render/svg.js';

const run = (max_concurrency: number, output_throughput: number, line: number): Row => ({
  source_file: 'a.log',
  source_line: line,
  model: 'acme/m',
  max_concurrency,
  output_throughput,
  output_throughput_per_user: output_throughput / max_concurrency,
});

/** The tick labels of an SVG's axes, in order. */
function tickLabels(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
}

describe('value scales', () => {
  it('leave zero out of a range of values, and take it in for one value (a domain of one value printed its tick as 131.200000)', async () => {
    const one = metricLines([run(1, 131.2, 1)], {});
    const two = metricLines([run(1, 131.2, 1), run(2, 240.5, 2)], {});
    if (!one.ok || !two.ok) throw new Error('the charts should draw');
    expect(JSON.stringify(one.spec)).toContain('"scale":{"zero":true}');
    expect(JSON.stringify(two.spec)).toContain('"scale":{"zero":false}');
    const labels = tickLabels(await renderSvg(one.spec));
    expect(labels.filter((l) => /^\d+\.\d{4,}$/.test(l))).toEqual([]);
    expect(labels).toContain('100');
  });

  it('do so on each axis of the pareto chart apart', () => {
    const chart = paretoChart([run(4, 400, 1), run(8, 400, 2)], {});
    if (!chart.ok) throw new Error('the chart should draw');
    const text = JSON.stringify(chart.spec);
    expect(text).toContain('"title":"output throughput per user (tok/s)","scale":{"zero":false}');
    expect(text).toMatch(/"title":"output throughput \(tok\/s\)","scale":\{"zero":true\}/);
  });
});
