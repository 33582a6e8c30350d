import { describe, expect, it } from 'vitest';
import { metricDirection, orderColumns } from '../../src/normalize/schema.js';

describe('metricDirection', () => {
  it.each([
    'mean_ttft_ms', 'p99_e2el_ms', 'duration_s', 'avg_cold_startup_time_s', 'p50_warm_compilation_time_s',
    'average_package_latency_s', 'gpu_energy_j', 'energy_per_output_token_j', 'gpu_power_w', 'failed', 'server_preemptions',
  ])('%s is better lower', (column) => expect(metricDirection(column)).toBe('lower'));

  it.each([
    'output_throughput', 'request_goodput', 'spec_acceptance_rate', 'output_tokens_per_joule', 'kv_transfer_throughput_mib_per_s',
    'completed', 'output_throughput_per_gpu',
  ])('%s is better higher', (column) => expect(metricDirection(column)).toBe('higher'));
});

describe('orderColumns', () => {
  it('puts canonical columns first in schema order, then the rest alphabetically', () => {
    expect(orderColumns(['zeta', 'mean_ttft_ms', 'alpha', 'model', 'run_id'])).toEqual(['run_id', 'model', 'mean_ttft_ms', 'alpha', 'zeta']);
  });
});
