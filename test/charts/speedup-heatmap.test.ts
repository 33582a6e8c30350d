import { describe, expect, it } from 'vitest';
import { symmetricRatioDomain } from '../../src/charts/log-domain.js';
import { speedupHeatmap } from '../../src/charts/speedup-heatmap.js';
import type { Row } from '../../src/charts/types.js';
import { sampleComparison } from './sample-rows.js';

interface Cell {
  spec_method: string;
  x: string;
  y: string;
  speedup: number | null;
  label: string;
  is_best: boolean;
}

function cellsOf(spec: unknown): Cell[] {
  const s = spec as { data?: { values: Cell[] }; concat?: { data: { values: Cell[] } }[] };
  return s.concat ? s.concat.flatMap((c) => c.data.values) : (s.data?.values ?? []);
}

function colorScale(spec: unknown): { domain: number[]; domainMid: number; type: string } {
  const json = JSON.stringify(spec);
  const m = /"scale":\{"type":"log","domain":\[([^\]]+)\],"domainMid":1/.exec(json);
  if (!m) throw new Error('no log colour scale');
  return { domain: (m[1] ?? '').split(',').map(Number), domainMid: 1, type: 'log' };
}

describe('speedup heatmap', () => {
  it('has one cell per method × K × concurrency whose value equals the computed speedup', () => {
    const rows = sampleComparison();
    const r = speedupHeatmap(rows, {});
    if (!r.ok) throw new Error(r.reason);
    const cells = cellsOf(r.spec);
    expect(cells).toHaveLength(12);
    for (const row of rows) {
      const cell = cells.find((c) => c.spec_method === row.spec_method && c.x === String(row.max_concurrency) && c.y === String(row.num_spec_tokens));
      expect(cell?.speedup).toBe(row.speedup_output_throughput);
    }
    const eagle4c1 = cells.find((c) => c.spec_method === 'eagle3' && c.y === '4' && c.x === '1');
    expect(eagle4c1).toMatchObject({ speedup: 2.2, label: '2.20×', is_best: true });
    expect(cells.filter((c) => c.is_best).map((c) => `${c.spec_method}:${c.y}:${c.x}`)).toEqual(['eagle3:4:1', 'ngram:3:1']);
  });

  it('draws a panel per value of a configuration column that tells pairs apart (prefix caching), never one cell of both', () => {
    const rows = sampleComparison().flatMap((r) => [r, { ...r, enable_prefix_caching: true, speedup_output_throughput: (r.speedup_output_throughput as number) * 2 }]);
    const r = speedupHeatmap(rows, { configColumns: ['spec_method', 'num_spec_tokens', 'max_concurrency', 'enable_prefix_caching'] });
    if (!r.ok) throw new Error(r.reason);
    const cells = cellsOf(r.spec);
    expect(cells).toHaveLength(24);
    const eagle4c1 = cells.filter((c) => c.spec_method === 'eagle3' && c.y === '4' && c.x === '1').map((c) => c.speedup);
    expect(eagle4c1.sort()).toEqual([2.2, 4.4]);
  });

  it('shows a cell that was not measured as missing, not as a number', () => {
    const r = speedupHeatmap(sampleComparison(), {});
    if (!r.ok) throw new Error(r.reason);
    const missing = cellsOf(r.spec).filter((c) => c.speedup === null);
    expect(missing.map((c) => `${c.spec_method}:${c.y}:${c.x}:${c.label}`)).toEqual(['ngram:3:64:—']);
  });

  it('centres the diverging colours on 1 with a domain symmetric in log space', () => {
    const r = speedupHeatmap(sampleComparison(), {});
    if (!r.ok) throw new Error(r.reason);
    const scale = colorScale(r.spec);
    expect(scale.domain).toEqual([0.455, 2.2]);
    expect(symmetricRatioDomain([1.0, 2.5])).toEqual([0.4, 2.5]);
    expect(symmetricRatioDomain([0.5, 1.2])).toEqual([0.5, 2]);
    expect(symmetricRatioDomain([])).toEqual([0.909, 1.1]);
  });

  it('uses label × concurrency when no run has a K, and averages repeats geometrically', () => {
    const rows: Row[] = [
      { spec_method: 'ngram', label: 'ngram-a', max_concurrency: 2, speedup_output_throughput: 2, pair_status: 'ok' },
      { spec_method: 'ngram', label: 'ngram-a', max_concurrency: 2, speedup_output_throughput: 0.5, pair_status: 'ok' },
      { spec_method: 'ngram', label: 'ngram-b', max_concurrency: 2, speedup_output_throughput: 1.5, pair_status: 'ok' },
      { spec_method: 'ngram', label: 'ngram-c', max_concurrency: 2, speedup_output_throughput: 9, pair_status: 'mismatch:tp' },
    ];
    const r = speedupHeatmap(rows, {});
    if (!r.ok) throw new Error(r.reason);
    expect(cellsOf(r.spec).map((c) => [c.y, c.speedup])).toEqual([
      ['ngram-a', 1],
      ['ngram-b', 1.5],
    ]);
    expect(JSON.stringify(r.spec)).toContain('"title":"label"');
  });

  it('declines when no pair has the metric', () => {
    const r = speedupHeatmap(sampleComparison(), { metric: 'p99_itl_ms' });
    expect(r).toEqual({ ok: false, reason: 'no speedup_p99_itl_ms values to draw' });
  });
});
