import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/inference-benchmarker-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const latencies = (p50: number, avg: number) => ({ p50, p60: p50, p70: p50, p80: p50, p90: p50 * 2, p95: p50 * 3, p99: p50 * 4, avg });

/** One step as the tool writes it (`BenchmarkResultsWriter`). */
function step(id: string, executor: string, exec: object, extra: object = {}): object {
  return {
    id,
    executor_type: executor,
    config: exec,
    total_requests: 101,
    total_tokens: 40000,
    token_throughput_secs: 333.5,
    duration_ms: 119940,
    time_to_first_token_ms: latencies(50, 55),
    inter_token_latency_ms: latencies(10, 11),
    failed_requests: 1,
    successful_requests: 100,
    request_rate: 0.83,
    total_tokens_sent: 20000,
    e2e_latency_ms: latencies(4000, 4100),
    ...extra,
  };
}

function report(config: object, results: object[]): string {
  return JSON.stringify({ config: { max_vus: 128, duration_secs: 120, benchmark_kind: 'Sweep', warmup_duration_secs: 30, rates: null, num_rates: 10, tokenizer: 'acme/m', ...config }, results, start_time: '2025-01-01T00:00:00+00:00', end_time: '2025-01-01T00:10:00+00:00' });
}

describe('inference-benchmarker-json', () => {
  it('detects a results file and its raw companion, not other JSON with max_vus or results', () => {
    const path = asRelPath('r.json');
    expect(grammar.detect({ path, head: report({}, []) }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '[{"id":"warmup","responses":[{"num_prompt_tokens":12,"num_decode_tokens":null' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '{"max_vus": 10, "vus": 3}' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"results": [{"executor_type": "x"}]}' }).score).toBe(0);
  });

  it('leaves the warm-up step out with an info, and reads every other step as a run', () => {
    const text = report({}, [step('warmup', 'ConstantVUs', { max_vus: 1, duration_secs: 30, rate: null }), step('throughput', 'ConstantVUs', { max_vus: 128, duration_secs: 120, rate: null })]);
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records).map((f) => f.step)).toEqual(['throughput']);
    expect(diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info table/ignored-block']);
  });

  it('puts a constant-rate step on request_rate and a virtual-user step on max_concurrency', () => {
    const text = report({}, [step('throughput', 'ConstantVUs', { max_vus: 64, duration_secs: 120, rate: null }), step('constant@2.46req/s', 'ConstantArrivalRate', { max_vus: 128, duration_secs: 120, rate: 2.4567 })]);
    const [vus, rate] = runFields(runGrammar(grammar, text).records);
    expect(vus).toMatchObject({ max_concurrency: 64 });
    expect(vus?.request_rate).toBeUndefined();
    expect(rate).toMatchObject({ request_rate: 2.4567, max_vus: 128 });
    expect(rate?.max_concurrency).toBeUndefined();
  });

  it('maps counts, durations and throughputs: request_rate is the measured throughput, duration in s', () => {
    const f = runFields(runGrammar(grammar, report({}, [step('throughput', 'ConstantVUs', { max_vus: 8, duration_secs: 120, rate: null })])).records)[0];
    expect(f).toMatchObject({
      completed: 100,
      failed: 1,
      duration_s: 119.94,
      request_throughput: 0.83,
      output_throughput: 333.5,
      total_input_tokens: 20000,
      total_output_tokens: 40000,
      client: 'inference-benchmarker',
      benchmark_kind: 'sweep',
    });
  });

  it('maps the latency distributions: avg → mean, p50 → median, inter-token latency → tpot, all in ms', () => {
    const f = runFields(runGrammar(grammar, report({}, [step('throughput', 'ConstantVUs', { max_vus: 8, duration_secs: 120, rate: null })])).records)[0];
    expect(f).toMatchObject({ mean_ttft_ms: 55, median_ttft_ms: 50, p90_ttft_ms: 100, p99_ttft_ms: 200, mean_tpot_ms: 11, median_tpot_ms: 10, p95_tpot_ms: 30, mean_e2el_ms: 4100, p99_e2el_ms: 16000 });
    expect(f?.mean_itl_ms).toBeUndefined();
  });

  it('reads the first files’ flat latency keys, and a TPOT of exactly 0 as missing', () => {
    const flat = {
      id: 'throughput', executor_type: 'ConstantVUs', config: { max_vus: 4, duration_secs: 60, rate: null }, successful_requests: 9, failed_requests: 0,
      time_to_first_token_ms_avg: 31.5, time_to_first_token_ms_p90: 40.25, inter_token_latency_ms_p95: 0, e2e_latency_ms_avg: 812,
    };
    const f = runFields(runGrammar(grammar, report({}, [flat])).records)[0];
    expect(f).toMatchObject({ mean_ttft_ms: 31.5, p90_ttft_ms: 40.25, p95_tpot_ms: null, mean_e2el_ms: 812 });
  });

  it('maps --extra-meta tags: engine names, tp, device, version; a tag of a column the file gives is kept as meta_<key>', () => {
    const meta = { engine: 'TensorRT-LLM', tensor_parallel_size: '4', pp: '2', device: 'H200', version: '0.17.0', model: 'other', run_id: 'x', max_num_seqs: '256', note: 'cold cache' };
    const f = runFields(runGrammar(grammar, report({ model_name: 'acme/m', meta }, [step('throughput', 'ConstantVUs', { max_vus: 8, duration_secs: 120, rate: null })])).records)[0];
    expect(f).toMatchObject({ engine: 'trtllm', tp: 4, pp: 2, gpu: 'H200', engine_version: '0.17.0', model: 'acme/m', meta_model: 'other', meta_run_id: 'x', max_num_seqs: 256, note: 'cold cache' });
  });

  it('reads the token options: the target length, the bounds a user gave (not u64::MAX), and the model from the tokenizer', () => {
    const text = report(
      { prompt_options: { num_tokens: 512, min_tokens: 0, max_tokens: 18446744073709551615, variance: 0 }, decode_options: { num_tokens: 800, min_tokens: 50, max_tokens: 800, variance: 100 }, run_id: 'abc1234', profile: 'fixed-length' },
      [step('throughput', 'ConstantVUs', { max_vus: 8, duration_secs: 120, rate: null })],
    );
    const f = runFields(runGrammar(grammar, text).records)[0];
    expect(f).toMatchObject({ input_len: 512, output_len: 800, prompt_variance: 0, decode_min_tokens: 50, decode_max_tokens: 800, model: 'acme/m', profile: 'fixed-length', benchmark_run_id: 'abc1234' });
    expect(f?.prompt_max_tokens).toBeUndefined();
    expect(f?.prompt_min_tokens).toBeUndefined();
    expect(f?.run_id).toBeUndefined();
  });

  it('leaves null values and a 0 ms duration out', () => {
    const f = runFields(runGrammar(grammar, report({}, [step('constant@0.10req/s', 'ConstantArrivalRate', { max_vus: 8, duration_secs: 120, rate: 0.1 }, { duration_ms: 0, token_throughput_secs: null, request_rate: null })])).records)[0];
    expect(f?.duration_s).toBeUndefined();
    expect(f?.output_throughput).toBeUndefined();
    expect(f?.request_throughput).toBeUndefined();
    expect(f?.completed).toBe(100);
  });

  it('reports the raw companion and other JSON without reading runs', () => {
    const { records, diagnostics } = runGrammar(grammar, '[{"id":"throughput","responses":[]}]\n{"other": 1}');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['1 table/ignored-block', '2 json/not-a-result']);
  });
});
