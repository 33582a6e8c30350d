import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/llmperf-json/index.js';
import { splitStatKey } from '../../../grammars/llmperf-json/metrics.js';
import { grammar as genaiPerfJson } from '../../../grammars/genai-perf-json/index.js';
import { grammar as vllmBenchResultJson } from '../../../grammars/vllm-bench-result-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** A summary as token_benchmark_ray.py writes it: flattened, indent=4. */
function summary(extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      version: '2023-08-31',
      name: 'acme-model_512_128_summary',
      model: 'acme/model',
      mean_input_tokens: 512,
      stddev_input_tokens: 0,
      mean_output_tokens: 128,
      stddev_output_tokens: 16,
      num_concurrent_requests: 4,
      results_num_completed_requests: 40,
      ...extra,
    },
    null,
    4,
  );
}

const one = (text: string): Record<string, unknown> => runFields(runGrammar(grammar, text).records)[0] ?? {};

describe('llmperf-json', () => {
  it('splits flattened statistic keys, p50 as the median and stddev as std', () => {
    expect(splitStatKey('results_ttft_s_quantiles_p50')).toEqual({ metric: 'ttft_s', stat: 'median' });
    expect(splitStatKey('results_end_to_end_latency_s_quantiles_p99')).toEqual({ metric: 'end_to_end_latency_s', stat: 'p99' });
    expect(splitStatKey('results_number_output_tokens_stddev')).toEqual({ metric: 'number_output_tokens', stat: 'std' });
    expect(splitStatKey('results_num_completed_requests_per_min')).toBeNull();
  });

  it('converts latencies from seconds to ms', () => {
    const f = one(summary({ results_ttft_s_mean: 0.25, results_ttft_s_quantiles_p50: 0.2, results_end_to_end_latency_s_quantiles_p99: 3.5, results_end_to_end_latency_s_stddev: 0.125 }));
    expect(f).toMatchObject({ mean_ttft_ms: 250, median_ttft_ms: 200, p99_e2el_ms: 3500, std_e2el_ms: 125 });
  });

  it("keeps llmperf's inter-token latency (TTFT included) out of the ITL columns", () => {
    const f = one(summary({ results_inter_token_latency_s_mean: 0.02, results_inter_token_latency_s_quantiles_p90: 0.025 }));
    expect(f).toMatchObject({ mean_itl_incl_ttft_ms: 20, p90_itl_incl_ttft_ms: 25 });
    expect(Object.keys(f).filter((k) => /_itl_ms$|_tpot_ms$/.test(k))).toEqual([]);
  });

  it('maps per-request and overall throughputs, requests per minute to per second, and derives the duration and token totals', () => {
    const f = one(
      summary({
        results_request_output_throughput_token_per_s_mean: 41.5,
        results_request_output_throughput_token_per_s_quantiles_p50: 42,
        results_mean_output_throughput_token_per_s: 160,
        results_num_completed_requests_per_min: 75,
        results_number_input_tokens_mean: 512,
        results_number_output_tokens_mean: 127.975,
        results_number_errors: 2,
      }),
    );
    expect(f).toMatchObject({
      mean_output_throughput_per_user: 41.5,
      median_output_throughput_per_user: 42,
      output_throughput: 160,
      request_throughput: 1.25,
      completed: 40,
      failed: 2,
      duration_s: 32,
      total_input_tokens: 20480,
      total_output_tokens: 5119,
    });
  });

  it('reads the run configuration: mean lengths requested, concurrency, model, results version and end time', () => {
    expect(one(summary({ timestamp: 1732312845 }))).toMatchObject({
      model: 'acme/model',
      input_len: 512,
      output_len: 128,
      stddev_output_tokens: 16,
      max_concurrency: 4,
      results_version: '2023-08-31',
      end_time: '2024-11-22T22:00:45Z',
      client: 'llmperf',
    });
  });

  it('reads numpy integers written as strings and leaves NaN statistics missing', () => {
    const text = summary({ results_number_output_tokens_min: '120', results_number_output_tokens_max: '131' }).replace('"results_num_completed_requests": 40', '"results_num_completed_requests": 40,\n    "results_ttft_s_mean": NaN');
    const f = one(text);
    expect(f).toMatchObject({ min_output_len: 120, max_output_len: 131 });
    expect(f).not.toHaveProperty('mean_ttft_ms');
  });

  it('keeps --metadata pairs and sampling parameters as flag columns; a --metadata name is the label', () => {
    const { records } = runGrammar(grammar, summary({ additional_sampling_params_temperature: 0.0, tensor_parallel_size: '4', gpu: 'H100', name: 'h100-tp4' }));
    const run = records[0];
    expect(run?.kind === 'run' ? run.label : undefined).toBe('h100-tp4');
    expect(runFields(records)[0]).toMatchObject({ temperature: 0, tp: 4, gpu: 'H100' });
    expect(runFields(records)[0]).not.toHaveProperty('additional_sampling_params_temperature');
    const unnamed = runGrammar(grammar, summary()).records[0];
    expect(unnamed?.kind === 'run' ? unnamed.label : undefined).toBeNull();
  });

  it("keeps a fork's unknown results under their own names and says so; an empty error-code frequency is no value", () => {
    const { records, diagnostics } = runGrammar(grammar, summary({ results_client_ttft_s_mean: 0.3, results_client_ttft_s_quantiles_p99: 0.9, results_client_total_output_throughput: 1200, results_error_code_frequency: '{}' }));
    expect(runFields(records)[0]).toMatchObject({ client_ttft_s: 0.3, p99_client_ttft_s: 0.9, client_total_output_throughput: 1200 });
    expect(runFields(records)[0]).not.toHaveProperty('error_code_frequency');
    expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual(['table/unknown-metric 2 metrics kept under their own names: client_total_output_throughput, client_ttft_s']);
  });

  it('detects the summary and the per-request array, not vLLM or GenAI-Perf results', () => {
    const path = asRelPath('x.json');
    const perRequest = '[\n    {\n        "error_code": null,\n        "error_msg": "",\n        "inter_token_latency_s": 0.02,\n        "ttft_s": 0.1,\n        "end_to_end_latency_s": 2.6,';
    expect(grammar.detect({ path, head: summary({ results_ttft_s_mean: 0.1 }) }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: perRequest }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '{"model_id": "m", "mean_ttft_ms": 12, "completed": 3}' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"time_to_first_token": {"unit": "ms", "avg": 3}}' }).score).toBe(0);
    expect(grammar.detect({ path, head: '[{"ttft_ms": 3}]' }).score).toBe(0);
    // and those grammars leave llmperf's files alone
    for (const other of [vllmBenchResultJson, genaiPerfJson]) {
      expect(other.detect({ path, head: summary({ results_ttft_s_mean: 0.1 }) }).score).toBe(0);
      expect(other.detect({ path, head: perRequest }).score).toBe(0);
    }
  });

  it('counts the per-request export without parsing it, cut short too, and reads no run from it', () => {
    const request = (code: string) => `    {\n        "error_code": ${code},\n        "ttft_s": 0.1,\n        "end_to_end_latency_s": 2.5\n    }`;
    const text = `[\n${[request('null'), request('429'), request('null')].join(',\n')},\n    {\n        "error_code": null,\n        "ttft_s": 0.`;
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      '1 table/ignored-block llmperf per-request export (3 requests, 1 of them errored; the run is the _summary.json written with it) ignored',
    ]);
  });

  it('reads a list of summaries as one run each, at its own line', () => {
    const text = `[\n${summary({ results_ttft_s_mean: 0.1 })},\n${summary({ results_ttft_s_mean: 0.2 })}\n]`;
    expect(grammar.detect({ path: asRelPath('all.json'), head: text }).score).toBeGreaterThan(0);
    const { records } = runGrammar(grammar, text);
    expect(runFields(records).map((f) => f.mean_ttft_ms)).toEqual([100, 200]);
    expect(records.map((r) => r.at.line)).toEqual([3, 15]);
  });

  it('says what a JSON object without results is', () => {
    const { records, diagnostics } = runGrammar(grammar, '{"model": "m", "mean_input_tokens": 5}');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['json/not-a-result']);
  });
});
