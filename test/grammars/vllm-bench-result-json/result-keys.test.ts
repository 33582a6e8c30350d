import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/vllm-bench-result-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const result = { model_id: 'acme/m-8b', completed: 100, duration: 20.5, output_throughput: 624.4 };

describe('latency keys named metric first (wrappers rewrite vLLM result keys so)', () => {
  it('are read as the canonical stat-first columns, e2e as e2el', () => {
    const text = JSON.stringify({ ...result, ttft_mean_ms: 40.1, ttft_p99_ms: 90, tpot_median_ms: 10.9, itl_std_ms: 2.5, e2e_p99_ms: 1500, e2el_p99_9_ms: 9 });
    const fields = runFields(runGrammar(grammar, text).records)[0];
    expect(fields).toMatchObject({ mean_ttft_ms: 40.1, p99_ttft_ms: 90, median_tpot_ms: 10.9, std_itl_ms: 2.5, p99_e2el_ms: 1500 });
    expect(fields).not.toHaveProperty('ttft_mean_ms');
    // not a percentile vLLM writes (p99.9 is `p99.9_`): kept under its own name, never guessed at
    expect(fields).toHaveProperty('e2el_p99_9_ms', 9);
  });

  it('stay as they are beside the canonical key (the file says both; neither is overwritten)', () => {
    const text = JSON.stringify({ ...result, mean_ttft_ms: 40, ttft_mean_ms: 41 });
    expect(runFields(runGrammar(grammar, text).records)[0]).toMatchObject({ mean_ttft_ms: 40, ttft_mean_ms: 41 });
  });

  it('take the line of the key they were read from', () => {
    const text = `{\n  "model_id": "acme/m",\n  "completed": 10,\n  "ttft_mean_ms": 40.1\n}`;
    const [run] = runGrammar(grammar, text).records;
    expect(run?.kind === 'run' ? run.lines.mean_ttft_ms : undefined).toBe(4);
  });
});

describe('a run with a ramp-up strategy', () => {
  it('has no request_rate (its "inf" is the unused default) and keeps the ramp it ran', () => {
    const text = JSON.stringify({ ...result, request_rate: 'inf', ramp_up_strategy: 'linear', ramp_up_start_rps: 1, ramp_up_end_rps: 20 });
    const fields = runFields(runGrammar(grammar, text).records)[0];
    expect(fields).toMatchObject({ request_rate: null, ramp_up_strategy: 'linear', ramp_up_start_rps: 1, ramp_up_end_rps: 20 });
    expect(runFields(runGrammar(grammar, JSON.stringify({ ...result, request_rate: 'inf' })).records)[0]).toMatchObject({ request_rate: Number.POSITIVE_INFINITY });
  });
});

describe('rtfx (inverse real-time factor)', () => {
  it('is null for a run without audio, whose JSON writes 0 (its block leaves the line out), and read above 0', () => {
    expect(runFields(runGrammar(grammar, JSON.stringify({ ...result, rtfx: 0.0 })).records)[0]).toMatchObject({ rtfx: null });
    expect(runFields(runGrammar(grammar, JSON.stringify({ ...result, rtfx: 35.2 })).records)[0]).toMatchObject({ rtfx: 35.2 });
  });
});

describe("a sweep's serve and bench overrides merged into its result", () => {
  it('fill the canonical configuration columns (they are the axes compared); other keys keep their names', () => {
    const overrides = { run_number: 0, tensor_parallel_size: 4, max_num_seqs: 64, dataset_name: 'random', 'random-input-len': 2048, random_output_len: 128, kv_cache_dtype: 'fp8', NUM_SPEC_TOKENS: -1, toString: 'v' };
    const fields = runFields(runGrammar(grammar, JSON.stringify({ ...result, ...overrides })).records)[0];
    expect(fields).toMatchObject({ tp: 4, max_num_seqs: 64, dataset: 'random', input_len: 2048, output_len: 128, kv_cache_dtype: 'fp8', NUM_SPEC_TOKENS: -1, toString: 'v' });
    for (const key of ['tensor_parallel_size', 'dataset_name', 'random-input-len', 'random_output_len']) expect(fields).not.toHaveProperty(key);
  });
});

describe('the Rust vllm-bench result (2026)', () => {
  it('flattens steady_state into steady_state_* columns, the window and the TTFT percentile pairs too', () => {
    const steady = {
      window: { start_s: 3.2, end_s: 38.9, duration_s: 35.7, target_concurrency: 32, threshold: 0.9, threshold_abs: 29, observed_peak: 32, requests_started_in_window: 171, requests_completed_in_window: 168, requests_total: 200, warning: null },
      request_throughput: 4.7, mean_ttft_ms: 295.1, percentiles_ttft_ms: [[99, 871.5], [99.9, 990.2]], p90_tpot_ms: 26.9,
    };
    const fields = runFields(runGrammar(grammar, JSON.stringify({ ...result, steady_state: steady })).records)[0];
    expect(fields).toMatchObject({
      steady_state_start_s: 3.2, steady_state_threshold: 0.9, steady_state_requests_total: 200, steady_state_request_throughput: 4.7,
      steady_state_mean_ttft_ms: 295.1, steady_state_p99_ttft_ms: 871.5, 'steady_state_p99.9_ttft_ms': 990.2, steady_state_p90_tpot_ms: 26.9,
    });
    expect(fields).not.toHaveProperty('steady_state_window');
    // null: no steady-state window was found; nothing to keep, nothing to say
    const none = runGrammar(grammar, JSON.stringify({ ...result, steady_state: null }));
    expect(Object.keys(runFields(none.records)[0] ?? {}).filter((k) => k.startsWith('steady_state'))).toEqual([]);
    expect(none.diagnostics).toEqual([]);
  });

  it('reads past its per-request keys and says which arrays or objects it did not read', () => {
    const text = JSON.stringify({ ...result, failed_requests: [{ index: 3, error: 'timeout' }], server_ttfts: [0.2, null], conversations: [{ id: 'c0' }], extra: { a: 1 } });
    const { records, diagnostics } = runGrammar(grammar, text);
    const fields = runFields(records)[0];
    for (const key of ['failed_requests', 'server_ttfts', 'conversations', 'extra']) expect(fields).not.toHaveProperty(key);
    expect(diagnostics.map((d) => `${d.code} ${d.message}`).sort()).toEqual([
      'table/ignored-block result key "conversations" (an array of 1) ignored',
      'table/ignored-block result key "extra" (an object) ignored',
    ]);
  });
});
