import { describe, expect, it } from 'vitest';
import { FieldMapBuilder } from '../../../src/core/records.js';
import { addMetricRow, metricTarget, splitMetricLabel, statName } from '../../../grammars/_shared/perf-metrics/index.js';

describe('perf-metrics', () => {
  it('maps statistic headers', () => {
    expect(['avg', 'p50', 'P99', 'std', 'min', 'p99.9', 'Metric', 'count'].map(statName)).toEqual(['mean', 'median', 'p99', 'std', 'min', 'p99.9', null, null]);
  });

  it('splits labels and JSON keys into name and unit', () => {
    expect(splitMetricLabel('Time To First Token  (ms)')).toEqual({ name: 'time to first token', unit: 'ms' });
    expect(splitMetricLabel('output_sequence_length')).toEqual({ name: 'output sequence length', unit: null });
    expect(splitMetricLabel('Request Count')).toEqual({ name: 'request count', unit: null });
  });

  it('names columns by kind and converts units', () => {
    const ttft = metricTarget('Time to first token (ns)');
    expect([ttft.column('p99'), ttft.scale]).toEqual(['p99_ttft_ms', 1e-6]);
    expect(metricTarget('Request Latency (sec)').scale).toBe(1000);
    expect(metricTarget('Input Sequence Length (tokens)').column('mean')).toBe('mean_input_len');
    expect(metricTarget('Output Token Throughput (tokens/sec)').column('mean')).toBe('output_throughput');
    expect(metricTarget('Output Token Throughput (tokens/sec)', 'effective_').column('p90')).toBe('p90_effective_output_throughput');
    expect(metricTarget('Draft Acceptance Rate (%)').scale).toBe(0.01);
    expect(metricTarget('Goodput Fraction').known).toBe(false);
  });

  it('adds a row, skipping N/A and rounding counts', () => {
    const b = new FieldMapBuilder();
    const unknown: string[] = [];
    addMetricRow(b, { label: 'Request Count (count)', line: 3, stats: [['mean', 10.0], ['min', null]] }, '', unknown);
    addMetricRow(b, { label: 'Odd Thing', line: 4, stats: [['mean', 1.5], ['p99', 2]] }, '', unknown);
    expect(b.fields).toEqual({ completed: 10, odd_thing: 1.5, p99_odd_thing: 2 });
    expect(b.lines).toEqual({ completed: 3, odd_thing: 4, p99_odd_thing: 4 });
    expect(unknown).toEqual(['Odd Thing']);
  });
});
