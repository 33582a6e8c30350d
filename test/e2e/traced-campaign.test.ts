import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * The most common shape of a campaign in one file: a script run with `bash -x | tee`, launching
 * the server once per speculative method and running the benchmark at each concurrency. Nothing
 * but the commands says which method a run had, or which runs are the baseline.
 */
const METHODS = [
  { flag: '', speedup: 1 },
  { flag: ` --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'`, speedup: 1.4 },
  { flag: ` --speculative-config '{"method": "eagle", "model": "acme/eagle-8b", "num_speculative_tokens": 3}'`, speedup: 1.8 },
];
const CONCURRENCIES = [1, 4, 16];

function block(concurrency: number, throughput: number): string[] {
  return [
    '============ Serving Benchmark Result ============',
    'Successful requests:                     100',
    `Maximum request concurrency:             ${concurrency}`,
    'Benchmark duration (s):                  20.00',
    'Total input tokens:                      102400',
    'Total generated tokens:                  25600',
    'Request throughput (req/s):              5.00',
    `Output token throughput (tok/s):         ${throughput.toFixed(2)}`,
    '---------------Time to First Token----------------',
    'Mean TTFT (ms):                          100.00',
    '==================================================',
  ];
}

const lines: string[] = [];
for (const m of METHODS) {
  lines.push(`+ vllm serve acme/chat-8b --tensor-parallel-size 1${m.flag}`);
  for (const c of CONCURRENCIES) {
    lines.push(`+ vllm bench serve --model acme/chat-8b --dataset-name random --random-input-len 1024 --max-concurrency ${c} --num-prompts ${c * 10}`);
    lines.push(...block(c, 100 * c * m.speedup));
  }
}
const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-campaign-'));
writeFileSync(path.join(dir, 'campaign.log'), `${lines.join('\n')}\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a traced campaign in one file: launches and benchmark loops', () => {
  it('gives each run its method from its launch, the baseline none, and no label (only the load sets the runs apart)', () => {
    const rows = JSON.parse(runCli(['table', dir, '--format', 'json']).stdout) as Record<string, unknown>[];
    expect(rows.map((r) => [r.spec_method, r.max_concurrency, r.label])).toEqual(
      ['none', 'ngram', 'eagle'].flatMap((method) => CONCURRENCIES.map((c) => [method, c, null])),
    );
  });

  it('pairs every speculative run with the baseline at its concurrency', () => {
    const out = runCli(['compare', dir, '--baseline', 'spec_method=none', '--metric', 'output_throughput', '--format', 'json']);
    const pairs = JSON.parse(out.stdout) as Record<string, unknown>[];
    const ok = pairs.filter((p) => p.pair_status === 'ok').map((p) => [p.spec_method, p.max_concurrency, p.speedup_output_throughput]);
    expect(ok.sort()).toEqual(
      [
        ...CONCURRENCIES.map((c) => ['eagle', c, 1.8]),
        ...CONCURRENCIES.map((c) => ['ngram', c, 1.4]),
      ].sort(),
    );
  });

  it('draws one line per method, the baseline among them', () => {
    const out = path.join(dir, 'lines.vl.json');
    const r = runCli(['plot', dir, '--chart', 'metric-lines', '--metric', 'output_throughput', '--baseline', 'spec_method=none', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const spec = JSON.parse(readFileSync(out, 'utf8')) as { data: { values: { series: string; x: number }[] } };
    const series = new Map<string, number[]>();
    for (const p of spec.data.values) series.set(p.series, [...(series.get(p.series) ?? []), p.x]);
    expect([...series.keys()].sort()).toEqual(['baseline: none', 'eagle K=3', 'ngram K=4']);
    for (const xs of series.values()) expect(xs.sort((a, b) => a - b)).toEqual(CONCURRENCIES);
  });
});
