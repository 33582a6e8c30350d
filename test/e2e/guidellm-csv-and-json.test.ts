import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-guidellm-csv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Latency {
  readonly mean: number;
  readonly median: number;
  readonly p95: number;
  readonly p99: number;
}

interface Saved {
  readonly strategy: object;
  readonly start: number;
  readonly duration: number;
  readonly successful: number;
  readonly incomplete: number;
  /** The successful requests' tokens as GuideLLM sums them (mean × count, a hair off the whole number). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly ttft: Latency;
  readonly itl: Latency;
  readonly tpot: Latency;
  readonly requestLatencyMeanS: number;
  readonly outputThroughput: number;
}

const distribution = (l: Latency) => ({ successful: { mean: l.mean, median: l.median, percentiles: { p50: l.median, p95: l.p95, p99: l.p99 } } });

/** One benchmark of a 0.5 `benchmarks.json`: the same measurements fixtures/guidellm-csv/basic has, at full precision. */
const benchmark = (b: Saved) => ({
  type_: 'generative_benchmark',
  config: { strategy: b.strategy, backend: { model: 'acme/chat-7b' } },
  scheduler_metrics: { measure_start_time: b.start, measure_end_time: b.start + b.duration },
  metrics: {
    request_totals: { successful: b.successful, incomplete: b.incomplete, errored: 0, total: b.successful + b.incomplete },
    request_latency: { successful: { mean: b.requestLatencyMeanS } },
    output_tokens_per_second: { successful: { mean: b.outputThroughput } },
    prompt_token_count: { successful: { mean: b.inputTokens / b.successful, total_sum: b.inputTokens } },
    output_token_count: { successful: { mean: 128, total_sum: b.outputTokens } },
    time_to_first_token_ms: distribution(b.ttft),
    inter_token_latency_ms: distribution(b.itl),
    time_per_output_token_ms: distribution(b.tpot),
  },
});

const SAVED: readonly Saved[] = [
  {
    strategy: { type_: 'synchronous' },
    start: 1767000000,
    duration: 30.004211,
    successful: 24,
    incomplete: 0,
    inputTokens: 6170.000000000001,
    outputTokens: 3072,
    ttft: { mean: 40.64928735753455, median: 42.152704045856055, p95: 48.272378703008584, p99: 48.44312828769979 },
    itl: { mean: 9.713025373962578, median: 9.78585052647032, p95: 10.836318797504928, p99: 10.85917352029065 },
    tpot: { mean: 9.954714920709234, median: 10.02888055450306, p95: 11.096977329888265, p99: 11.137634683931877 },
    requestLatencyMeanS: 1.2742035098507822,
    outputThroughput: 103.0408281645781,
  },
  {
    strategy: { type_: 'throughput', max_concurrency: null },
    start: 1767000040,
    duration: 30.012877,
    successful: 301,
    incomplete: 7,
    inputTokens: 77051.99999999999,
    outputTokens: 38528,
    ttft: { mean: 674.10527284587, median: 675.336821886507, p95: 817.9309670045598, p99: 828.4576325447443 },
    itl: { mean: 24.44205839047941, median: 24.327088137141985, p95: 27.224306556044855, p99: 27.501126441319915 },
    tpot: { mean: 29.517552253412145, median: 29.575524767668522, p95: 32.667453546833755, p99: 33.57016883313257 },
    requestLatencyMeanS: 3.778246688436758,
    outputThroughput: 1279.0266867921603,
  },
  {
    strategy: { type_: 'constant', rate: 3.417254901960784, max_concurrency: null },
    start: 1767000080,
    duration: 30.001402,
    successful: 98,
    incomplete: 2,
    inputTokens: 25137,
    outputTokens: 12544,
    ttft: { mean: 45.661126920425644, median: 45.61072817727893, p95: 55.91983440090204, p99: 56.979585949863456 },
    itl: { mean: 11.32548870981533, median: 11.35492001332732, p95: 12.539291693187806, p99: 12.625841865681066 },
    tpot: { mean: 11.593735883335727, median: 11.604780042523473, p95: 12.771966168147605, p99: 12.941923909889667 },
    requestLatencyMeanS: 1.4839981930669723,
    outputThroughput: 419.9097103406615,
  },
];

const report = (benchmarks: readonly Saved[]) => ({
  metadata: { version: 1, guidellm_version: '0.5.2' },
  args: { model: 'acme/chat-7b', data: ['prompt_tokens=256,output_tokens=128'] },
  benchmarks: benchmarks.map(benchmark),
});

/** A folder as `guidellm benchmark --outputs json,csv` leaves it. */
function savedFolder(json: object): string {
  const dir = mkdtempSync(path.join(tmp, 'run-'));
  copyFileSync(path.join(FIXTURES, 'guidellm-csv/basic/input.csv'), path.join(dir, 'benchmarks.csv'));
  writeFileSync(path.join(dir, 'benchmarks.json'), JSON.stringify(json));
  return dir;
}

describe('GuideLLM benchmarks.csv beside the benchmarks.json of the same command', () => {
  it('counts each benchmark once, the JSON kept', () => {
    const { rows, diagnostics } = runsOf(savedFolder(report(SAVED)));
    expect(rows.map((r) => [r.source_format, r.strategy, r.request_rate ?? null, r.total_output_tokens])).toEqual([
      ['guidellm-json', 'synchronous', null, 3072],
      ['guidellm-json', 'throughput', null, 38528],
      ['guidellm-json', 'constant', 3.417254901960784, 12544],
    ]);
    // what only the CSV had is merged in (the JSON above has no std), and where the copy was is said
    expect(rows[0]).toMatchObject({ model: 'acme/chat-7b', std_ttft_ms: expect.any(Number), p90_itl_ms: expect.any(Number) });
    expect(String(rows[0]?.config_sources)).toContain('benchmarks.csv:4');
    expect(diagnostics.filter((d) => d.includes('normalize/duplicate-run'))).toHaveLength(3);
  });

  it('meets a JSON copy by strategy, tokens and latencies alone, as the console rows meet theirs', () => {
    const bare = report(SAVED);
    for (const b of bare.benchmarks) {
      const { output_tokens_per_second: _throughput, request_latency: _latency, ...metrics } = b.metrics;
      Object.assign(b, { metrics, scheduler_metrics: {} });
    }
    const { rows } = runsOf(savedFolder(bare));
    expect(rows.map((r) => [r.source_format, r.strategy, r.output_throughput])).toEqual([
      ['guidellm-json', 'synchronous', 103.0408281645781],
      ['guidellm-json', 'throughput', 1279.0266867921603],
      ['guidellm-json', 'constant', 419.9097103406615],
    ]);
  });

  it('keeps both when the latencies disagree: another run of the same shape', () => {
    const other = SAVED.map((b) => ({ ...b, ttft: { mean: b.ttft.mean + 3, median: b.ttft.median + 3, p95: b.ttft.p95 + 3, p99: b.ttft.p99 + 3 } }));
    expect(runsOf(savedFolder(report(other))).rows).toHaveLength(6);
  });
});
