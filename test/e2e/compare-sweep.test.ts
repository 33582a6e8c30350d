import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SUITE = path.join(FIXTURES, '_suites/spec-decode-sweep');
const CONCURRENCIES = [1, 2, 4, 8, 16, 32, 64];

/** Runs the CLI from source (tsx), returning stdout; stderr is kept for the failed-configuration check. */
function cli(args: string[]): { stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { stdout, stderr: '' };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** A value read straight from a bench log, independent of the grammar. */
function logValue(rel: string, label: string): number {
  const text = readFileSync(path.join(SUITE, rel), 'utf8');
  const m = new RegExp(`^${label.replace(/[()]/g, '\\$&')}:\\s+([\\d.]+)`, 'm').exec(text);
  if (!m) throw new Error(`${label} not in ${rel}`);
  return Number(m[1]);
}

describe('compare on the spec-decode sweep suite', () => {
  const { stdout } = cli(['compare', SUITE, '--baseline', 'spec_method=none', '--format', 'json']);
  const rows = JSON.parse(stdout) as Record<string, unknown>[];
  const runs = rows.filter((r) => r.pair_status !== 'failed-configuration');

  it('gives one row per speculative run with the inferred configuration', () => {
    expect(runs).toHaveLength(14);
    const summary = runs.map((r) => [r.spec_method, r.num_spec_tokens, r.model, r.tp, r.max_concurrency, r.pair_status]);
    const expected = [
      ...CONCURRENCIES.map((c) => ['draft_model', 8, 'example-org/Orca-70B-Instruct', 4, c, 'ok']),
      ...CONCURRENCIES.map((c) => ['eagle3', 7, 'example-org/Orca-70B-Instruct', 4, c, 'ok']),
    ];
    expect(summary).toEqual(expected);
    expect(runs.map((r) => r.draft_model)).toEqual([...CONCURRENCIES.map(() => 'example-org/Orca-1B-Instruct'), ...CONCURRENCIES.map(() => 'example-org/Orca-70B-EAGLE3')]);
  });

  it('computes speedups as the ratio of the two runs, oriented so > 1 is better', () => {
    for (const r of runs) {
      const c = Number(r.max_concurrency);
      const file = r.spec_method === 'eagle3' ? `eagle3-k7/tp-results-eagle3/bench-eagle3-c${c}.log` : `k8/tp-results-draft-model/bench-draft-model-c${c}.log`;
      const base = `tp-results/bench-nosd-c${c}.log`;
      expect(r.baseline_source_file).toBe(base);
      expect(r.speedup_output_throughput).toBeCloseTo(logValue(file, 'Output token throughput (tok/s)') / logValue(base, 'Output token throughput (tok/s)'), 5);
      expect(r.speedup_mean_tpot_ms).toBeCloseTo(logValue(base, 'Mean TPOT (ms)') / logValue(file, 'Mean TPOT (ms)'), 5);
      expect(r.speedup_mean_ttft_ms).toBeCloseTo(logValue(base, 'Mean TTFT (ms)') / logValue(file, 'Mean TTFT (ms)'), 5);
    }
  });

  it('reports the break-even concurrency of each method', () => {
    const byMethod = new Map(runs.map((r) => [r.spec_method, [r.break_even_verdict, r.break_even_concurrency]]));
    const draft = byMethod.get('draft_model') ?? [];
    const eagle = byMethod.get('eagle3') ?? [];
    expect(draft[0]).toBe('falls below 1');
    expect(Number(draft[1])).toBeGreaterThan(8);
    expect(Number(draft[1])).toBeLessThan(16);
    expect(eagle[0]).toBe('falls below 1');
    expect(Number(eagle[1])).toBeGreaterThan(32);
    expect(Number(eagle[1])).toBeLessThan(64);
  });

  it('reports the crashed configuration with its error', () => {
    const failed = rows.filter((r) => r.pair_status === 'failed-configuration');
    expect(failed.map((r) => [r.source_file, r.spec_method, r.num_spec_tokens, r.tp, String(r.error).slice(0, 43), r.error_at])).toEqual([
      [
        'k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log',
        'draft_model',
        8,
        2,
        'torch.OutOfMemoryError: CUDA out of memory.',
        'k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log:14',
      ],
    ]);
  });

  it('prints the summary tables with break-even and failed configurations', () => {
    const out = cli(['compare', SUITE, '--baseline', 'spec_method=none', '--summary', '--format', 'json', '--sla', 'ttft=300,tpot=40']);
    const s = JSON.parse(out.stdout) as Record<string, Record<string, unknown>[]>;
    expect(Object.keys(s)).toEqual(['best-speedup', 'break-even', 'best-num-spec-tokens', 'ladder', 'sla', 'failed-configurations']);
    expect((s['break-even'] ?? []).map((b) => [b.spec_method, b.verdict])).toEqual([
      ['draft_model', 'falls below 1'],
      ['eagle3', 'falls below 1'],
    ]);
    expect((s['best-speedup'] ?? []).map((b) => [b.spec_method, b.max_concurrency])).toEqual([
      ['draft_model', 1],
      ['eagle3', 1],
    ]);
    expect((s['failed-configurations'] ?? []).map((f) => f.error_at)).toEqual(['k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log:14']);
    // each configuration's largest load within the SLA, and what it serves there
    expect((s.sla ?? []).map((r) => [r.spec_method, r.largest_max_concurrency_meeting_sla, r.output_throughput])).toEqual([
      ['eagle3', 16, 604.22],
      ['draft_model', 16, 450.75],
      ['none', 16, 481.88],
    ]);
  });
});
