import { describe, expect, it } from 'vitest';
import { sweepVariant } from '../../../grammars/vllm-bench-result-json/index.js';

describe('the serve combination a vllm bench sweep result ran under, from its folder', () => {
  it('is the SERVE part, whatever bench combination and workload level follow', () => {
    expect(sweepVariant('exp/SERVE--eagle3-BENCH--max_concurrency=8/run=0.json')).toBe('eagle3');
    expect(sweepVariant('exp/SERVE--eagle3/run=0.json')).toBe('eagle3');
    // `sweep serve_workload`: the load point explored is no part of the configuration's name
    expect(sweepVariant('exp/SERVE--eagle3-WL--request_rate=10/run=0.json')).toBe('eagle3');
    expect(sweepVariant('exp/SERVE--max_num_seqs=64-BENCH--input_len=512-WL--max_concurrency=32/run=1.json')).toBe('max_num_seqs=64');
  });

  it('is null outside a sweep folder', () => {
    expect(sweepVariant('results/run=0.json')).toBeNull();
    expect(sweepVariant('run.json')).toBeNull();
  });
});
