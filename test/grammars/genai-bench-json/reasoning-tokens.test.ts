import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-bench-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** One StatField block (metrics.py) around a value. */
const stat = (v: number): Record<string, number> => ({ min: v * 0.8, max: v * 1.2, mean: v, stddev: v / 10, sum: v * 5, p25: v * 0.9, p50: v, p75: v * 1.1, p90: v * 1.15, p95: v * 1.18, p99: v * 1.2 });
const zero = (): Record<string, number> => ({ min: 0, max: 0, mean: 0, stddev: 0, sum: 0, p25: 0, p50: 0, p75: 0, p90: 0, p95: 0, p99: 0 });

/** A run file of a genai-bench whose RequestLevelMetrics has `num_reasoning_tokens`. */
function runFile(stats: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      aggregated_metrics: {
        scenario: 'D(300,600)',
        num_concurrency: 8,
        batch_size: 1,
        iteration_type: 'num_concurrency',
        run_duration: 50,
        mean_output_throughput_tokens_per_s: 60,
        num_completed_requests: 5,
        num_requests: 5,
        stats,
        ...extra,
      },
      individual_request_metrics: [],
      _time_unit: 's',
    },
    null,
    4,
  );
}

describe('genai-bench-json: num_reasoning_tokens', () => {
  it('reads the reasoning-token statistics as {stat}_reasoning_len and their sum as total_reasoning_tokens', () => {
    const { records, diagnostics } = runGrammar(grammar, runFile({ ttft: stat(0.2), num_output_tokens: stat(600), num_reasoning_tokens: stat(250) }));
    const f = runFields(records)[0] ?? {};
    expect(f).toMatchObject({ mean_reasoning_len: 250, median_reasoning_len: 250, max_reasoning_len: 300, p99_reasoning_len: 300, std_reasoning_len: 25, total_reasoning_tokens: 1250, mean_output_len: 600 });
    expect(f).not.toHaveProperty('num_reasoning_tokens');
    expect(diagnostics.map((d) => d.code)).not.toContain('table/unknown-metric');
  });

  it('leaves the block out when every request has 0 (the API reported no reasoning tokens)', () => {
    const { records, diagnostics } = runGrammar(grammar, runFile({ ttft: stat(0.2), num_output_tokens: stat(600), num_reasoning_tokens: zero() }));
    const f = runFields(records)[0] ?? {};
    expect(Object.keys(f).filter((k) => k.includes('reasoning'))).toEqual([]);
    expect(f.mean_output_len).toBe(600);
    expect(diagnostics.map((d) => d.code)).not.toContain('table/unknown-metric');
  });

  it('gives no reasoning columns for an embedding run (its output metrics are all reset to 0)', () => {
    const text = runFile({ ttft: stat(0.05), num_output_tokens: zero(), num_reasoning_tokens: zero() }, { scenario: 'E(512)', iteration_type: 'batch_size', batch_size: 16 });
    const f = runFields(runGrammar(grammar, text).records)[0] ?? {};
    expect(Object.keys(f).filter((k) => k.includes('reasoning'))).toEqual([]);
    expect(f.batch_size).toBe(16);
  });
});
