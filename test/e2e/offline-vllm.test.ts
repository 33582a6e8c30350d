import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

/**
 * `vllm bench latency` runs tee'd with their in-process engine's log, one file per batch size
 * (`none/latency-bs8.log`, `eagle3-k4/latency-bs8.log`): the configuration comes from the engine's
 * own log lines, the batch size from the path, and speculation is compared per batch size.
 */
const SUITE = path.join(FIXTURES, '_suites/vllm-latency-sweep');
const BATCHES = [1, 8, 32];

/** A run's mean batch latency read straight from its log, in ms, independent of the grammar. */
function loggedMs(rel: string): number {
  const m = /^Avg latency: ([\d.]+) seconds$/m.exec(readFileSync(path.join(SUITE, rel), 'utf8'));
  if (!m?.[1]) throw new Error(`no Avg latency in ${rel}`);
  return Number(m[1]) * 1000;
}

type Row = Record<string, unknown>;

describe('a vllm bench latency sweep', () => {
  const table = runCli(['table', SUITE, '--format', 'json']);
  const runs = (JSON.parse(table.stdout) as Row[]).map((r) => [r.source_file, r.client, r.model, r.tp, r.spec_method, r.num_spec_tokens ?? null, r.batch_size, r.max_concurrency ?? null]);

  it('takes each run configuration from its engine log and its batch size from its path', () => {
    expect(table.status).toBe(0);
    expect(runs).toEqual([
      ...BATCHES.map((b) => [`eagle3-k4/latency-bs${b}.log`, 'vllm-bench-latency', 'Qwen/Qwen3-8B', 2, 'eagle3', 4, b, null]).sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      ...BATCHES.map((b) => [`none/latency-bs${b}.log`, 'vllm-bench-latency', 'Qwen/Qwen3-8B', 2, 'none', null, b, null]).sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    ]);
  });

  it('compares speculation with the baseline at each batch size on the batch latency, and says where it stops paying', () => {
    const compared = runCli(['compare', SUITE, '--baseline', 'spec_method=none', '--format', 'json']);
    const rows = JSON.parse(compared.stdout) as Row[];
    expect(rows.map((r) => [r.batch_size, r.pair_status, r.baseline_source_file])).toEqual(BATCHES.map((b) => [b, 'ok', `none/latency-bs${b}.log`]));
    for (const r of rows) {
      const b = Number(r.batch_size);
      // lower is better: the speedup is the baseline's latency over the candidate's
      expect(r.speedup_mean_batch_latency_ms).toBeCloseTo(loggedMs(`none/latency-bs${b}.log`) / loggedMs(`eagle3-k4/latency-bs${b}.log`), 6);
    }
    // 1.3× at 8, 0.8× at 32: crossing 1 at 3/5 of the way on log2 from 8 to 32, a batch size
    expect(rows[0]?.break_even_batch_size).toBeCloseTo(2 ** (3 + (0.3 / 0.5) * 2), 2);
    expect(rows[0]).not.toHaveProperty('break_even_concurrency');
    expect(rows[0]?.break_even_verdict).toBe('falls below 1');
  });

  const out = mkdtempSync(path.join(tmpdir(), 'benchlens-latency-report-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('plots the speedup along the batch size without being told the metric', () => {
    const svg = path.join(out, 'speedup-lines.svg');
    const plot = runCli(['plot', SUITE, '--chart', 'speedup-lines', '--out', svg]);
    expect(plot.stderr).toContain('speedup-lines from 3 rows');
    expect(readFileSync(svg, 'utf8')).toContain('batch_size');
  });

  it('leads its report with the batch latency the runs measured', () => {
    const report = runCli(['report', SUITE, '--out', out, '--title', 'Latency sweep']);
    expect(report.status).toBe(0);
    const summary = readFileSync(path.join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('eagle3: best mean\\_batch\\_latency\\_ms speedup 1.80×');
    expect(summary).toContain('## Break-even batch size per method');
    // the charts drawn along the batch size say so
    expect(summary).toContain('![Speedup vs batch size](figures/speedup-lines.svg)');
    expect(summary).toContain('![Metric vs batch size: mean\\_batch\\_latency\\_ms](figures/metric-lines-mean_batch_latency_ms.svg)');
  });
});

describe('a write-up of vllm bench latency runs', () => {
  it('gives each run the command fenced above it in its section, and compares them', () => {
    const writeup = path.join(FIXTURES, 'vllm-bench-latency/writeup-markdown');
    const rows = JSON.parse(runCli(['table', writeup, '--format', 'json']).stdout) as Row[];
    expect(rows.map((r) => [r.label, r.spec_method, r.num_spec_tokens ?? null, r.batch_size, r.input_len, r.output_len, r.mean_batch_latency_ms])).toEqual([
      ['Without speculation', 'none', null, 1, 128, 256, 2041.2],
      ['With EAGLE-3 (k=3)', 'eagle3', 3, 1, 128, 256, 1102.3],
    ]);
    const compared = JSON.parse(runCli(['compare', writeup, '--baseline', 'spec_method=none', '--format', 'json']).stdout) as Row[];
    expect(compared.map((r) => [r.pair_status, r.speedup_mean_batch_latency_ms])).toEqual([['ok', Number((2041.2 / 1102.3).toFixed(6))]]);
  });
});
