import { describe, expect, it } from 'vitest';
import { loadAxis } from '../../src/analyze/load-axis.js';
import { breakEven } from '../../src/analyze/summary-break-even.js';
import { metricLines } from '../../src/charts/metric-lines.js';

/** A request-rate sweep with no concurrency cap (`--request-rate 1 2 4 8`), as `vllm bench serve` records it. */
const rateSweep = [1, 2, 4, 8].map((rate, i) => ({ spec_method: 'ngram', max_concurrency: null, request_rate: rate, output_throughput: 100 * rate, speedup_output_throughput: 1.4 - 0.2 * i, pair_status: 'ok', source_file: 'r.log', source_line: i + 1 }));

describe('the load axis of a sweep', () => {
  it('is the concurrency when the runs vary it, else the request rate when they vary that', () => {
    expect(loadAxis([{ max_concurrency: 1, request_rate: Infinity }, { max_concurrency: 8, request_rate: Infinity }])).toBe('max_concurrency');
    expect(loadAxis(rateSweep)).toBe('request_rate');
    // one concurrency cap, several rates: the rates
    expect(loadAxis([{ max_concurrency: 64, request_rate: 2 }, { max_concurrency: 64, request_rate: 4 }])).toBe('request_rate');
    expect(loadAxis([{ max_concurrency: 4, request_rate: Infinity }])).toBe('max_concurrency');
  });

  it('is what charts draw and break-even reads along when no axis is given', () => {
    const chart = metricLines(rateSweep, {});
    expect(chart.ok).toBe(true);
    if (chart.ok) expect(JSON.stringify(chart.spec)).toContain('"title":"request_rate"');
    expect(breakEven(rateSweep, { metric: 'output_throughput' })).toMatchObject([{ axis: 'request_rate', points: 4, verdict: 'falls below 1' }]);
  });
});
