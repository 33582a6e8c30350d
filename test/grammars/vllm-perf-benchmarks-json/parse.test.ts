import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/vllm-perf-benchmarks-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { grammarRuns, runFields, runGrammar } from '../../helpers/grammar-run.js';

/** A serving row as the upstream script writes it (`Median` / `P99` alone are TPOT's). */
function serving(name: string, extra: object = {}): Record<string, unknown> {
  return {
    'Test name': name, GPU: '8xNVIDIA H100 80GB HBM3', '# of req.': 200, 'Tput (req/s)': 0.97, 'Total Token Tput (tok/s)': 404.25, 'Output Tput (tok/s)': 195.42,
    'Mean TTFT (ms)': 21.3, 'Median TTFT (ms)': 19.9, 'P99 TTFT (ms)': 45.1, 'Mean TPOT (ms)': 8.41, Median: 8.4, P99: 9.93, 'Mean ITL (ms)': 8.4, 'Median ITL (ms)': 8.12, 'P99 ITL (ms)': 21.8,
    ...extra,
  };
}

/** `json.dumps` of the rows: Python's separators, one line. */
const dumps = (rows: object[]): string => JSON.stringify(rows).replaceAll('","', '", "').replaceAll('":', '": ');

describe('vllm-perf-benchmarks-json', () => {
  it("detects the summary's array of rows, not other JSON arrays or result files", () => {
    const path = asRelPath('benchmark_results.json');
    expect(grammar.detect({ path, head: dumps([serving('serving_a_qps_1')]) }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '[\n  {\n    "Test name": "latency_a_tp1",\n    "GPU": "8xA100",\n    "Mean latency (ms)": 1.5' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '[]' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"Test name": {"0": "serving_a"}, "GPU": {"0": "8xA100"}}' }).score).toBe(0);
    expect(grammar.detect({ path, head: '[{"Test name": "x", "score": 1}]' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"model_id": "m", "request_throughput": 1.2, "completed": 10}' }).score).toBe(0);
  });

  it('maps a serving row: # of req. is completed, Median and P99 alone are the TPOT statistics, the test name is the label', () => {
    const { runs } = grammarRuns(grammar, dumps([serving('serving_llama8B_tp1_sharegpt_qps_1')]));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.label).toBe('serving_llama8B_tp1_sharegpt_qps_1');
    expect(runs[0]?.fields).toMatchObject({
      client: 'vllm-bench-serve', engine: 'vllm', completed: 200, request_throughput: 0.97, total_token_throughput: 404.25, output_throughput: 195.42,
      mean_ttft_ms: 21.3, median_ttft_ms: 19.9, p99_ttft_ms: 45.1, mean_tpot_ms: 8.41, median_tpot_ms: 8.4, p99_tpot_ms: 9.93, mean_itl_ms: 8.4, median_itl_ms: 8.12, p99_itl_ms: 21.8,
      tp: 1, dataset: 'sharegpt', request_rate: 1,
    });
    expect(runs[0]?.fields.num_prompts).toBeUndefined();
  });

  it("reads a copy's columns (Total Tput, Median TPOT (ms), P99 TPOT (ms)) and the first scripts' latency table in seconds", () => {
    const copy = { 'Test name': 'tp4_pp2_qps_04', GPU: '1xSKU x 2', '# of req.': 200, 'Tput (req/s)': 2.5, 'Total Tput (tok/s)': 1080.9, 'Median TPOT (ms)': 59.5, 'P99 TPOT (ms)': 71.1 };
    const old = { 'Test name': 'latency_llama8B_tp1', GPU: '8xA100', 'Average latency (s)': 1.0124, 'P10 (s)': 1.001, 'P90 (s)': 1.02 };
    const [c, l] = runFields(runGrammar(grammar, dumps([copy, old])).records);
    expect(c).toMatchObject({ client: 'vllm-bench-serve', total_token_throughput: 1080.9, median_tpot_ms: 59.5, p99_tpot_ms: 71.1, tp: 4, pp: 2, request_rate: 4, gpu: 'SKU x 2', gpus_on_machine: 1 });
    expect(l).toMatchObject({ client: 'vllm-bench-latency', mean_batch_latency_ms: 1012.4, p10_batch_latency_ms: 1001, p90_batch_latency_ms: 1020 });
  });

  it('tells the three tables apart by their columns, else by the test name', () => {
    const rows = [
      { 'Test name': 'latency_llama8B_tp1', GPU: '8xA100', 'Mean latency (ms)': 1012.4, 'Median latency (ms)': 1011.9, 'P99 latency (ms)': 1020.1 },
      { 'Test name': 'throughput_llama8B_tp1', GPU: '8xA100', '# of req.': 1000, 'Total # of tokens': 408210, 'Elapsed time (s)': 30.7, 'Tput (req/s)': 32.5, 'Tput (tok/s)': 13266.2 },
      // a copy that kept only the request rate of its throughput table
      { 'Test name': 'throughput_llama8B_tp1', GPU: '8xA100', 'Tput (req/s)': 32.5 },
      { 'Test name': 'mystery', GPU: '8xA100', 'Tput (req/s)': 3.2 },
    ];
    const fields = runFields(runGrammar(grammar, dumps(rows)).records);
    expect(fields.map((f) => f.client)).toEqual(['vllm-bench-latency', 'vllm-bench-throughput', 'vllm-bench-throughput', undefined]);
    expect(fields[0]).toMatchObject({ mean_batch_latency_ms: 1012.4, p50_batch_latency_ms: 1011.9, p99_batch_latency_ms: 1020.1, tp: 1 });
    expect(fields[1]).toMatchObject({ completed: 1000, total_tokens: 408210, duration_s: 30.7, request_throughput: 32.5, total_token_throughput: 13266.2 });
    // `Median` alone means nothing outside the serving table
    expect(runFields(runGrammar(grammar, dumps([{ 'Test name': 'latency_x', 'Mean latency (ms)': 5, Median: 4 }])).records)[0]).toMatchObject({ median: 4 });
  });

  it("reads the load point the script appended to the test name, under the row's own columns", () => {
    const rows = [
      serving('serving_deepseek-ai-DeepSeek-V2.5_tp8_pp2_sharegpt_qps_01'),
      serving('serving_llama8B_tp1_random_qps_inf_concurrency_32'),
      serving('serving_llama8B_tp1_sharegpt_qps_0.5', { 'TP Size': 2, 'Dataset Name': 'random', qps: 'inf', 'PP Size': null }),
      { 'Test name': 'latency_llama8B_tp1_bs8', 'Mean latency (ms)': 5 },
    ];
    const [a, b, c, d] = runFields(runGrammar(grammar, dumps(rows)).records);
    expect(a).toMatchObject({ tp: 8, pp: 2, dataset: 'sharegpt', request_rate: 1 });
    expect(a?.model).toBeUndefined();
    expect(b).toMatchObject({ request_rate: Infinity, max_concurrency: 32, dataset: 'random' });
    expect(c).toMatchObject({ tp: 2, dataset: 'random', request_rate: Infinity });
    expect(c?.pp).toBeUndefined();
    expect(d).toMatchObject({ batch_size: 8 });
    expect(d?.max_concurrency).toBeUndefined();
  });

  it('reads the GPU column as the machine GPUs the script counted', () => {
    const gpu = (value: string) => runFields(runGrammar(grammar, dumps([serving('serving_a', { GPU: value })])).records)[0];
    expect(gpu('8xNVIDIA H100 80GB HBM3')).toMatchObject({ gpu: 'NVIDIA H100 80GB HBM3', gpus_on_machine: 8 });
    expect(gpu('NVIDIA A100\nNVIDIA A100\n')).toMatchObject({ gpu: 'NVIDIA A100', gpus_on_machine: 2 });
    const plain = gpu('H100');
    expect(plain).toMatchObject({ gpu: 'H100' });
    expect(plain?.gpus_on_machine).toBeUndefined();
    expect(plain?.num_gpus).toBeUndefined();
  });

  it("reads pandas' NaN as missing and keeps other columns under their own names, said once", () => {
    const text = `[${dumps([serving('serving_a_qps_1', { 'Goodput (req/s)': 0.9, Engine: 'vllm-0.9', 'STD TTFT (ms)': 2.4 })]).slice(1, -1).replace('"P99": 9.93', '"P99": NaN')}, ${dumps([serving('serving_a_qps_4', { 'Goodput (req/s)': 3.1 })]).slice(1)}`;
    const { records, diagnostics } = runGrammar(grammar, text);
    const [a, b] = runFields(records);
    expect(a).toMatchObject({ goodput_req_s: 0.9, extra_engine: 'vllm-0.9', engine: 'vllm', std_ttft_ms: 2.4 });
    expect(a?.p99_tpot_ms).toBeUndefined();
    expect(b).toMatchObject({ goodput_req_s: 3.1, p99_tpot_ms: 9.93 });
    expect(diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`)).toEqual(['info table/unknown-metric 2 metrics kept under their own names: Goodput (req/s) → goodput_req_s, Engine → extra_engine']);
  });

  it('gives each value of a pretty-printed file its own line, and says what holds no result', () => {
    const text = JSON.stringify([serving('serving_a_qps_1'), { 'Test name': 'serving_b', GPU: '8xA100' }], null, 2);
    const { runs, diagnostics } = grammarRuns(grammar, text);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.at.line).toBe(3);
    expect(runs[0]?.lines).toMatchObject({ completed: 5, request_throughput: 6, request_rate: 3, gpu: 4 });
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['20 json/not-a-result']);
    expect(runGrammar(grammar, '{"latency": {}}').diagnostics.map((d) => d.code)).toEqual(['json/not-a-result']);
  });
});
