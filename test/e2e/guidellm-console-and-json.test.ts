import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-guidellm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** One benchmark of a `benchmarks.json`, at full precision, as the console fixture prints it rounded. */
const benchmark = (strategy: object, input: number, output: number, ttft: [number, number], itl: [number, number]) => ({
  config: { strategy },
  metrics: {
    request_totals: { successful: output / 128, errored: 0, incomplete: 0 },
    prompt_token_count: { successful: { mean: 256, count: output / 128, total_sum: input } },
    output_token_count: { successful: { mean: 128, count: output / 128, total_sum: output - 1e-9 } },
    time_to_first_token_ms: { successful: { median: ttft[0], percentiles: { p95: ttft[1] } } },
    inter_token_latency_ms: { successful: { median: itl[0], percentiles: { p95: itl[1] } } },
  },
});

/** The benchmarks of fixtures/guidellm-console/basic, saved: its rates are only in here. */
const saved = {
  metadata: { guidellm_version: '0.5.0' },
  args: { model: 'acme/tiny-chat-8b' },
  benchmarks: [
    benchmark({ type_: 'synchronous' }, 7680, 3840, [21.43, 25.87], [6.91, 7.08]),
    benchmark({ type_: 'throughput' }, 245760, 122880, [412.66, 1893.04], [26.71, 29.77]),
    benchmark({ type_: 'constant', rate: 7.5 }, 55296, 27648, [27.31, 38.77], [8.12, 8.86]),
    benchmark({ type_: 'constant', rate: 15 }, 102912, 51456, [35.93, 61.24], [11.98, 13.41]),
    benchmark({ type_: 'constant', rate: 22.5 }, 150784, 75392, [58.35, 122.61], [17.94, 21.26]),
  ],
};

describe('GuideLLM console tables beside the benchmarks.json of the same command', () => {
  it('count each benchmark once, the JSON kept (its rates; the console has none)', () => {
    const dir = mkdtempSync(path.join(tmp, 'both-'));
    copyFileSync(path.join(FIXTURES, 'guidellm-console/basic/input.txt'), path.join(dir, 'guidellm.log'));
    writeFileSync(path.join(dir, 'benchmarks.json'), JSON.stringify(saved, null, 2));
    const { rows, diagnostics } = runsOf(dir);
    expect(rows.map((r) => [r.source_format, r.strategy, r.request_rate ?? null, r.total_output_tokens])).toEqual([
      ['guidellm-json', 'synchronous', null, 3840],
      ['guidellm-json', 'throughput', null, 122880],
      ['guidellm-json', 'constant', 7.5, 27648],
      ['guidellm-json', 'constant', 15, 51456],
      ['guidellm-json', 'constant', 22.5, 75392],
    ]);
    // what only the console had is merged in, and where the copy was is said
    expect(rows[0]).toMatchObject({ median_e2el_ms: 900, input_throughput: 263.5 });
    expect(diagnostics.filter((d) => d.includes('normalize/duplicate-run'))).toHaveLength(5);
  });

  it('keep both when their latencies disagree: another run of the same shape', () => {
    const dir = mkdtempSync(path.join(tmp, 'other-'));
    copyFileSync(path.join(FIXTURES, 'guidellm-console/basic/input.txt'), path.join(dir, 'guidellm.log'));
    const other = { ...saved, benchmarks: saved.benchmarks.map((b) => ({ ...b, metrics: { ...b.metrics, time_to_first_token_ms: { successful: { median: 99.9 } } } })) };
    writeFileSync(path.join(dir, 'benchmarks.json'), JSON.stringify(other));
    expect(runsOf(dir).rows).toHaveLength(10);
  });
});
