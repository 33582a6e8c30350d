import { describe, expect, it } from 'vitest';
import { addDerived, servingGpus } from '../../src/normalize/derived.js';

describe('the GPUs a run was served by (output_throughput_per_gpu)', () => {
  it('are tp × pp × dp, dp adding none under data-parallel attention (its ranks are tp ranks)', () => {
    expect(servingGpus({ tp: 4, pp: 2, dp: 2 })).toBe(16);
    expect(servingGpus({ tp: 8, dp: 8, enable_dp_attention: true })).toBe(8);
    expect(servingGpus({ pp: 2 })).toBeNull();
  });

  it('are the GPUs the source counts when it does (a deployment of prefill and decode servers of other sizes)', () => {
    expect(servingGpus({ disaggregation: 'pd', tp: 8, num_decode_servers: 2, num_prefill_servers: 1, num_gpus: 20 })).toBe(20);
    expect(servingGpus({ tp: 2, num_workers: 2, num_gpus: 4 })).toBe(4);
    expect(servingGpus({ num_gpus: 0, tp: 2 })).toBe(2);
  });

  it('count prefill context parallelism and every worker behind one endpoint', () => {
    expect(servingGpus({ tp: 4, pcp_size: 2 })).toBe(8);
    expect(servingGpus({ tp: 8, pp: 2, num_workers: 3 })).toBe(48);
    // a disaggregated deployment counts its servers by side, not by num_workers
    expect(servingGpus({ disaggregation: 'pd', tp: 8, num_decode_servers: 1, num_prefill_servers: 1, num_workers: 5 })).toBe(16);
  });

  it('count every server of a prefill/decode-disaggregated deployment, or are unknown without their numbers', () => {
    expect(servingGpus({ disaggregation: 'pd', tp: 8, num_decode_servers: 2, num_prefill_servers: 1 })).toBe(24);
    expect(servingGpus({ disaggregation: 'pd', tp: 16, prefill_tp: 8, num_decode_servers: 1, num_prefill_servers: 2 })).toBe(32);
    expect(servingGpus({ disaggregation: 'pd', tp: 16 })).toBeNull();
  });

  it('divide the output throughput', () => {
    const row: Record<string, number | string | null> = { output_throughput: 4800, disaggregation: 'pd', tp: 8, num_decode_servers: 1, num_prefill_servers: 1 };
    addDerived(row);
    expect(row.output_throughput_per_gpu).toBe(300);
  });
});
