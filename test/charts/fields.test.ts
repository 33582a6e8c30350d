import { describe, expect, it } from 'vitest';
import { columnTitle, lowerIsBetter } from '../../src/charts/fields.js';
import { metricDirection } from '../../src/normalize/schema.js';

describe('columnTitle', () => {
  it.each([
    ['mean_tpot_ms', 'mean TPOT (ms)'],
    ['duration_s', 'duration (s)'],
    ['output_throughput', 'output throughput (tok/s)'],
    ['request_throughput', 'request throughput (req/s)'],
    ['gpu_energy_j', 'GPU energy (J)'],
    ['energy_per_output_token_j', 'energy per output token (J)'],
    ['gpu_power_w', 'GPU power (W)'],
    // the name says its unit: not seconds, not tokens
    ['kv_transfer_throughput_mib_per_s', 'KV transfer throughput mib per s'],
  ])('%s → %s', (column, title) => expect(columnTitle(column)).toBe(title));
});

describe('lowerIsBetter', () => {
  it.each([
    ['mean_ttft_ms', true],
    ['avg_cold_startup_time_s', true],
    ['gpu_energy_j', true],
    ['output_throughput', false],
    // a rate whose name ends in seconds is no time
    ['kv_transfer_throughput_mib_per_s', false],
    ['output_tokens_per_joule', false],
  ] as const)('%s → %s, as compare orients its speedups', (column, lower) => {
    expect(lowerIsBetter(column)).toBe(lower);
    expect(metricDirection(column)).toBe(lower ? 'lower' : 'higher');
  });
});
