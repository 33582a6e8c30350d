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
  it.each(['mean_ttft_ms', 'avg_cold_startup_time_s', 'gpu_energy_j', 'output_throughput', 'kv_transfer_throughput_mib_per_s', 'output_tokens_per_joule'])(
    '%s agrees with the direction compare orients speedups by',
    (column) => expect(lowerIsBetter(column)).toBe(metricDirection(column) === 'lower'),
  );
  it('reads a rate in bytes per second as better higher', () => expect(lowerIsBetter('kv_transfer_throughput_mib_per_s')).toBe(false));
});
