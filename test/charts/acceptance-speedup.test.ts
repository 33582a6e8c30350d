import { describe, expect, it } from 'vitest';
import { acceptanceSpeedup } from '../../src/charts/acceptance-speedup.js';
import type { ChartOptions } from '../../src/charts/types.js';

const pair = (length: number, speedup: number, c: number) => ({
  spec_method: 'eagle3', num_spec_tokens: 3, max_concurrency: c, pair_status: 'ok', spec_acceptance_length: length,
  speedup_output_throughput: speedup, speedup_mean_ttft_ms: 0.9, source_file: `c${c}.json`, source_line: 1,
});
const rows = [pair(2.5, 1.8, 1), pair(3.1, 1.2, 16)];

/** The lines the chart draws besides its points: [mark, data]. */
function references(options: ChartOptions): [string, unknown][] {
  const result = acceptanceSpeedup(rows, options);
  if (!result.ok) throw new Error(result.reason);
  const layers = (result.spec as unknown as { layer: { mark: { type: string }; data: { values: Record<string, unknown>[] } }[] }).layer;
  return layers.slice(1).map((l) => [l.mark.type, l.data.values.map((v) => v.bound ?? v.y)]);
}

describe('acceptance-speedup: the free-drafting bound', () => {
  it('draws speedup = acceptance length across the lengths measured, named at its end, beside break-even', () => {
    expect(references({})).toEqual([
      ['rule', [1]],
      ['line', [2.5, 3.1]],
      ['text', [3.1]],
    ]);
  });

  it('draws no bound for time to first token (prefill, which drafting does not touch) or along another x', () => {
    expect(references({ metric: 'mean_ttft_ms' })).toEqual([['rule', [1]]]);
    expect(references({ x: 'max_concurrency' })).toEqual([['rule', [1]]]);
  });
});
