import { describe, expect, it } from 'vitest';
import { metricLines } from '../../src/charts/metric-lines.js';
import { configurationKeys, seriesNamer, varyingKeys } from '../../src/charts/series.js';
import type { Row } from '../../src/charts/types.js';

describe('seriesNamer', () => {
  const workload = '--dataset-name random --random-input-len 1024';

  it('tells apart configurations that share a label (a workload named on every method’s runs)', () => {
    const rows = [
      { label: workload, spec_method: 'none', max_concurrency: 1 },
      { label: workload, spec_method: 'eagle', num_spec_tokens: 3, max_concurrency: 1 },
      { label: workload, spec_method: 'ngram', num_spec_tokens: 4, max_concurrency: 1 },
    ];
    const name = seriesNamer(rows, varyingKeys(rows));
    expect(rows.map(name)).toEqual([`${workload} · none`, `${workload} · eagle K=3`, `${workload} · ngram K=4`]);
  });

  it('keeps a label that names one configuration as it is, and names unlabelled rows by their keys', () => {
    const rows = [
      { label: 'EAGLE-3, K=3', spec_method: 'eagle3', num_spec_tokens: 3, max_concurrency: 1 },
      { label: 'EAGLE-3, K=3', spec_method: 'eagle3', num_spec_tokens: 3, max_concurrency: 8 },
      { label: null, spec_method: 'none', max_concurrency: 1 },
    ];
    const name = seriesNamer(rows, varyingKeys(rows));
    expect(rows.map(name)).toEqual(['EAGLE-3, K=3', 'EAGLE-3, K=3', 'none']);
    expect(seriesNamer(rows, varyingKeys(rows), 'max_concurrency')(rows[1] ?? {})).toBe('8');
  });

  it('tells workloads of other lengths apart: they are not repeats of each other', () => {
    const rows = [
      { label: null, spec_method: 'none', dataset: 'random', input_len: 1024, output_len: 256, max_concurrency: 8 },
      { label: null, spec_method: 'none', dataset: 'random', input_len: 4096, output_len: 256, max_concurrency: 8 },
    ];
    expect(rows.map(seriesNamer(rows, varyingKeys(rows)))).toEqual(['input_len=1024', 'input_len=4096']);
  });
});

describe('configurationKeys', () => {
  const CONFIG = ['engine', 'model', 'spec_method', 'num_spec_tokens', 'draft_model', 'max_concurrency', 'num_prompts', 'enable_prefix_caching', 'max_num_seqs'];
  const run = (over: Row): Row => ({ model: 'acme/m-8b', spec_method: 'none', output_throughput: 100, ...over });

  it('adds a configuration column that tells runs apart the usual keys name alike (prefix caching on and off), with unset as a value', () => {
    const rows = [
      run({ max_concurrency: 8, mean_ttft_ms: 90 }),
      run({ max_concurrency: 8, mean_ttft_ms: 40, enable_prefix_caching: true }),
      run({ max_concurrency: 16, mean_ttft_ms: 120 }),
      run({ max_concurrency: 16, mean_ttft_ms: 50, enable_prefix_caching: true }),
    ];
    expect(configurationKeys(rows, { configColumns: CONFIG }, undefined, ['max_concurrency'])).toEqual(['enable_prefix_caching']);
    expect(configurationKeys(rows, {})).toEqual([]);
    // drawn as two lines, not as repeats of one at their median
    const result = metricLines(rows, { y: 'mean_ttft_ms', configColumns: CONFIG });
    if (!result.ok) throw new Error(result.reason);
    const values = (result.spec as unknown as { data: { values: { series: string; x: number; y: number }[] } }).data.values;
    expect(values.map((v) => [v.series, v.x, v.y])).toEqual([
      ['enable_prefix_caching=(none)', 8, 90], ['enable_prefix_caching=(none)', 16, 120],
      ['enable_prefix_caching=true', 8, 40], ['enable_prefix_caching=true', 16, 50],
    ]);
  });

  it('leaves out a column that changes only with the load or with the method (a sweep’s prompts, a method’s draft model)', () => {
    const rows = [
      run({ max_concurrency: 8, num_prompts: 80, max_num_seqs: 8 }),
      run({ max_concurrency: 16, num_prompts: 160, max_num_seqs: 16 }),
      run({ spec_method: 'eagle3', num_spec_tokens: 3, draft_model: 'acme/eagle3-8b', max_concurrency: 8, num_prompts: 80, max_num_seqs: 8 }),
      run({ spec_method: 'eagle3', num_spec_tokens: 3, draft_model: 'acme/eagle3-8b', max_concurrency: 16, num_prompts: 160, max_num_seqs: 16 }),
    ];
    expect(configurationKeys(rows, { configColumns: CONFIG }, undefined, ['max_concurrency'])).toEqual(['spec_method', 'num_spec_tokens']);
  });
});
