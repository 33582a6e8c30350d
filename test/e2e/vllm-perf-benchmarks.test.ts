import { describe, expect, it } from 'vitest';
import { runsOf } from '../helpers/runs-of.js';

const SUITE = 'fixtures/_suites/vllm-perf-benchmarks';

describe("vLLM performance benchmarks' results folder", () => {
  const { rows, diagnostics } = runsOf(SUITE);

  it('counts each test once: its result file kept, labelled by the summary row made of it', () => {
    expect(rows.map((r) => [r.source_file, r.source_format, r.label, r.client, r.request_rate ?? null, r.gpu, r.gpus_on_machine])).toEqual([
      ['results/latency_llama8B_tp1.json', 'vllm-bench-latency', 'latency_llama8B_tp1', 'vllm-bench-latency', null, 'NVIDIA H100 80GB HBM3', 8],
      ['results/throughput_llama8B_tp1.json', 'vllm-bench-throughput', 'throughput_llama8B_tp1', 'vllm-bench-throughput', null, 'NVIDIA H100 80GB HBM3', 8],
      ['results/serving_llama8B_tp1_sharegpt_qps_1.json', 'vllm-bench-result-json', 'serving_llama8B_tp1_sharegpt_qps_1', 'vllm-bench-serve', 1, 'NVIDIA H100 80GB HBM3', 8],
      ['results/serving_llama8B_tp1_sharegpt_qps_inf.json', 'vllm-bench-result-json', 'serving_llama8B_tp1_sharegpt_qps_inf', 'vllm-bench-serve', Infinity, 'NVIDIA H100 80GB HBM3', 8],
    ]);
    expect(diagnostics.filter((d) => d.includes('normalize/duplicate-run'))).toHaveLength(4);
    for (const r of rows) expect(JSON.parse(String(r.config_sources))).toContain('duplicate:results/benchmark_results.json:1');
  });

  it("keeps the result files' full values (std, token totals, duration) beside the summary's", () => {
    const serving = rows.find((r) => r.label === 'serving_llama8B_tp1_sharegpt_qps_1');
    expect(serving).toMatchObject({ model: 'meta-llama/Meta-Llama-3.1-8B-Instruct', tp: 1, dataset: 'sharegpt', completed: 200, duration_s: 205.51234871203, std_ttft_ms: 6.1204478, median_tpot_ms: 8.395120731 });
    expect(rows.find((r) => r.label === 'latency_llama8B_tp1')).toMatchObject({ num_iters: 6, p10_batch_latency_ms: 608.1774311 });
  });
});
