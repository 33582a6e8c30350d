import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

/**
 * `vllm bench sweep serve` output: two serve combinations (`baseline`, `eagle3`) × two
 * concurrencies × two runs, each with a warm-up and a `summary.json`, plus a failed run and a
 * server that never became ready (`--continue-on-error`).
 */
const SUITE = path.join(FIXTURES, '_suites/vllm-bench-sweep');
const EXPERIMENT = path.join(SUITE, 'sweep_results/20261120_101500');

type Row = Record<string, unknown>;

/** A run's output throughput read straight from its result file, independent of the grammar. */
function logged(variant: string, concurrency: number, run: number): number {
  const file = path.join(EXPERIMENT, `SERVE--${variant}-BENCH--max_concurrency=${concurrency}`, `run=${run}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { output_throughput: number }).output_throughput;
}

describe('a vllm bench sweep serve experiment', () => {
  it('gives one run per measured result, labelled by its serve combination, without warm-ups or summary copies', () => {
    const table = runCli(['table', SUITE, '--format', 'json', '--verbose']);
    expect(table.status).toBe(0);
    const runs = (JSON.parse(table.stdout) as Row[]).map((r) => [r.label, r.max_concurrency, r.run_number, r.spec_method ?? null, r.num_spec_tokens ?? null, path.basename(String(r.source_file))]);
    const expected = ['baseline', 'eagle3'].flatMap((label) =>
      [1, 8].flatMap((c) => [0, 1].map((run) => [label, c, run, label === 'eagle3' ? 'eagle3' : null, label === 'eagle3' ? 3 : null, `run=${run}.json`])),
    );
    expect(runs).toEqual(expected);
    // every file is accounted for: each warm-up is said to be one, each copy in a summary.json counted once
    const combinations = readdirSync(EXPERIMENT, { withFileTypes: true }).filter((d) => d.isDirectory() && readdirSync(path.join(EXPERIMENT, d.name)).includes('warmup.json'));
    expect(table.stderr.match(/json\/warmup-run/g)).toHaveLength(combinations.length);
    const copies = (file: string) => table.stderr.split('\n').filter((l) => l.includes(`/${file}:`) && l.includes('normalize/duplicate-run') && l.includes('one result saved twice'));
    expect(copies('summary.json')).toHaveLength(8);
    expect(copies('summary.csv')).toHaveLength(8);
  });

  it('reads the same runs from its summary.csv alone, labelled by their combination names', () => {
    const alone = runCli(['table', path.join(FIXTURES, 'vllm-bench-sweep/summary-csv'), '--format', 'json']);
    const runs = (JSON.parse(alone.stdout) as Row[]).map((r) => [r.label, r.max_concurrency, r.run_number, r.spec_method ?? null, r.num_spec_tokens ?? null, r.output_throughput]);
    const expected = ['baseline', 'eagle3'].flatMap((label) => [1, 8].flatMap((c) => [0, 1].map((run) => [label, c, run, label === 'eagle3' ? 'eagle3' : null, label === 'eagle3' ? 3 : null, logged(label, c, run)])));
    expect(runs).toEqual(expected);
  });

  it('compares the combinations per concurrency, their runs as repeats', () => {
    const compared = runCli(['compare', SUITE, '--baseline', 'label=baseline', '--format', 'json']);
    const rows = (JSON.parse(compared.stdout) as Row[]).filter((r) => r.pair_status !== 'failed-configuration');
    expect(rows.map((r) => [r.label, r.max_concurrency, r.pair_status, r.repeats, r.baseline_repeats])).toEqual([
      ['eagle3', 1, 'ok', 2, 2],
      ['eagle3', 8, 'ok', 2, 2],
    ]);
    const median = (a: number, b: number) => (a + b) / 2;
    for (const r of rows) {
      const c = Number(r.max_concurrency);
      const ratio = median(logged('eagle3', c, 0), logged('eagle3', c, 1)) / median(logged('baseline', c, 0), logged('baseline', c, 1));
      expect(r.speedup_output_throughput).toBeCloseTo(ratio, 5);
    }
  });

  it('lists the failed run and the server that never served as failed configurations, with their overrides', () => {
    const scan = runCli(['scan', SUITE, '--json']);
    const failed = (JSON.parse(scan.stdout) as { failed_configurations: Row[] }).failed_configurations;
    expect(failed.map((f) => [path.basename(String(f.source_file)), f.exception, (f.config as Row).spec_method, (f.config as Row).max_concurrency ?? null])).toEqual([
      ['run=0.failure.json', 'CalledProcessError', 'eagle3', 64],
      ['SERVE-mtp-failure.json', 'RuntimeError', 'mtp', null],
    ]);
    // not "server failed": the first is its benchmark's failure
    expect(scan.stderr.match(/link\/failed-configuration configuration failed and no run used it/g)).toHaveLength(2);
  });
});
