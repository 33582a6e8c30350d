import { describe, expect, it } from 'vitest';
import { seriesNamer, varyingKeys } from '../../src/charts/series.js';

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
