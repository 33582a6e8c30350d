import { describe, expect, it } from 'vitest';
import { grammar } from '../../grammars/vllm-bench-sweep/index.js';
import { runGrammar } from '../helpers/grammar-run.js';

/** A `--continue-on-error` failure record of `vllm bench sweep serve` (vllm/benchmarks/sweep/serve.py), own values. */
function failureRecord(runNumber: number, benchOverrides: Record<string, unknown>): string {
  return JSON.stringify(
    {
      run_number: runNumber,
      error_type: 'ReadTimeout',
      error: 'no answer within 600 s',
      serve_overrides: { _benchmark_name: 'ngram-k4', speculative_config: { method: 'ngram', num_speculative_tokens: 4 } },
      bench_overrides: benchOverrides,
    },
    null,
    2,
  );
}

describe('vllm-bench-sweep failure records (sweep serve --continue-on-error)', () => {
  it('reads a measured run that failed as a failed configuration', () => {
    const { records, diagnostics } = runGrammar(grammar, failureRecord(1, { max_concurrency: 32 }));
    expect(records.map((r) => r.kind)).toEqual(['config', 'failure']);
    expect(diagnostics).toEqual([]);
  });

  it('does not count a failed warm-up (warmup.failure.json, run_number -1) as a failed configuration', () => {
    const { records, diagnostics } = runGrammar(grammar, failureRecord(-1, { max_concurrency: 32, num_prompts: 16 }));
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['json/warmup-run', 1]]);
  });
});
