import { describe, expect, it } from 'vitest';
import type { FieldValue } from '../../src/core/types.js';
import type { FailedConfiguration } from '../../src/normalize/failed-configurations.js';
import { keyFindings, MAX_BREAK_EVEN_FINDINGS } from '../../src/report/findings.js';
import { campaign, sampleComparison } from '../charts/sample-rows.js';

type Pair = Record<string, FieldValue>;

const failure = (i: number): FailedConfiguration => ({ source_file: `f${i}/serve.log`, source_line: 1, error_at: `f${i}/serve.log:9`, exception: 'torch.OutOfMemoryError', message: 'CUDA out of memory', config: {}, config_sources: [] });

describe('key findings', () => {
  it('name the model when runs of one method span several, so no two sentences read the same', () => {
    const findings = keyFindings(campaign<Pair>(sampleComparison, 2), []);
    expect(new Set(findings).size).toBe(findings.length);
    expect(findings).toContain('eagle3 (model org/model-1, num_spec_tokens 2, dataset sharegpt): speedup falls below 1 at max_concurrency ≈ 40.317 (break-even, interpolated on log2).');
    // one model: as before, not named
    expect(keyFindings(campaign<Pair>(sampleComparison, 1), []).some((f) => f.includes('model'))).toBe(false);
  });

  it('say where the speedup crosses 1 for at most a dozen configurations, and name the table with the rest', () => {
    const findings = keyFindings(campaign<Pair>(sampleComparison, 10), []);
    const crossings = findings.filter((f) => f.includes('(break-even') || f.includes('at every measured'));
    expect(crossings).toHaveLength(MAX_BREAK_EVEN_FINDINGS);
    expect(findings).toContain(`… and where the speedup crosses 1 for ${30 - MAX_BREAK_EVEN_FINDINGS} more configurations: tables/summary-break-even.csv.`);
  });

  it("never call a run that states no method the baseline's none", () => {
    const pair = (c: number, s: number): Pair => ({ run_id: `k4-c${c}`, source_file: 'grid.jsonl', source_line: c, spec_method: null, num_spec_tokens: 4, max_concurrency: c, pair_status: 'ok', output_throughput: 100 * s, baseline_output_throughput: 100, speedup_output_throughput: s });
    const findings = keyFindings([pair(1, 2.4), pair(8, 1.3)], []);
    expect(findings[0]).toMatch(/^spec method not stated: best output_throughput speedup 2\.40× /);
    expect(findings[1]).toMatch(/^spec method not stated \(num_spec_tokens 4\): speedup always above 1/);
    expect(findings.some((f) => f.startsWith('none'))).toBe(false);
  });

  it('tell apart by a swept flag of the runs table the configurations the break-even table tells apart', () => {
    const pair = (c: number, s: number, flag: string): Pair => ({ run_id: `${flag}-c${c}`, source_file: `${flag}.jsonl`, source_line: c, spec_method: 'eagle3', num_spec_tokens: 4, max_concurrency: c, scheduling_policy: flag, pair_status: 'ok', output_throughput: 100 * s, baseline_output_throughput: 100, speedup_output_throughput: s });
    const rows = [pair(1, 1.6, 'fcfs'), pair(32, 0.8, 'fcfs'), pair(1, 1.7, 'priority'), pair(32, 1.2, 'priority')];
    const evens = keyFindings(rows, [], 'output_throughput', ['spec_method', 'num_spec_tokens', 'max_concurrency', 'scheduling_policy']).filter((f) => f.includes('speedup falls') || f.includes('speedup always'));
    expect(evens).toEqual([
      expect.stringMatching(/^eagle3 \(.*scheduling_policy fcfs.*\): speedup falls below 1 at max_concurrency ≈/),
      expect.stringMatching(/^eagle3 \(.*scheduling_policy priority.*\): speedup always above 1/),
    ]);
  });

  it('name five failed configurations and count the rest', () => {
    const [line] = keyFindings([], Array.from({ length: 7 }, (_, i) => failure(i))).filter((f) => f.includes('failed'));
    expect(line).toBe('7 configurations failed and produced no run: f0/serve.log:1 (torch.OutOfMemoryError); f1/serve.log:1 (torch.OutOfMemoryError); f2/serve.log:1 (torch.OutOfMemoryError); f3/serve.log:1 (torch.OutOfMemoryError); f4/serve.log:1 (torch.OutOfMemoryError); and 2 more: tables/failed-configurations.csv.');
  });
});
