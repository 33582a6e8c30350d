import { describe, expect, it } from 'vitest';
import { grammar } from '../../grammars/trtllm-bench/index.js';
import { grammarRuns } from '../helpers/grammar-run.js';
import { labelSpec, reportKey, statSectionColumn } from '../../grammars/trtllm-bench/labels.js';

const RULE = '='.repeat(59);

const runs = (text: string) => grammarRuns(grammar, text);

/** A section as the report prints it: its title with the trailing space of that era, a blank line after it. */
function section(title: string, ...body: string[]): string[] {
  return [RULE, `= ${title} `, RULE, ...body, ''];
}

// `trtllm-bench latency`, ~0.15–0.16 (report_latency_statistics): numbers of our own
const ENGINE = section('ENGINE DETAILS', 'Model:\t\t\torg/model-8b', 'Engine Directory:\t/tmp/eng', 'TensorRT-LLM Version:\t0.15.0', 'Dtype:\t\t\tfloat16', 'KV Cache Dtype:\t\tNone', 'Quantization:\t\tNone', 'Max Input Length:\t1024', 'Max Sequence Length:\t2048');
const WORLD = section('WORLD + RUNTIME INFORMATION', 'TP Size:\t\t2', 'PP Size:\t\t1', 'Max Runtime Batch Size:\t1', 'Max Runtime Tokens:\t4096', 'Scheduling Policy:\tGuaranteed No Evict', 'KV Memory Percentage:\t95.00%');
const GENERAL = section('GENERAL OVERVIEW', 'Number of requests:\t\t20', 'Average Input Length (tokens):\t512.0000', 'Average Output Length (tokens):\t256.0000', 'Average request latency (ms):\t2100.5000');
const THROUGHPUT = section('THROUGHPUT OVERVIEW', 'Request Throughput (req/sec):\t\t  0.4761', 'Total Token Throughput (tokens/sec):\t  121.8800', 'Generation Token Throughput (tokens/sec): 125.4000');
const LATENCY = section('LATENCY OVERVIEW', 'Total Latency (ms):\t\t  42010.0000', 'Average time-to-first-token (ms): 35.2500', 'Average inter-token latency (ms): 8.1000', 'Acceptance Rate (Speculative):\t  2.40');
const GENERATION = section('GENERATION LATENCY BREAKDOWN', 'MIN (ms): 2001.0000', 'MAX (ms): 2210.0000', 'AVG (ms): 2065.2500', 'P90 (ms): 2050.0000', 'P95 (ms): 2190.0000', 'P99 (ms): 2205.0000');
const ACCEPTANCE = section('ACCEPTANCE BREAKDOWN', 'MIN: 1.50', 'MAX: 1.50', 'AVG: 1.50', 'P90: 1.50', 'P95: 1.50', 'P99: 1.50');
const LATENCY_REPORT = [...ENGINE, ...WORLD, ...GENERAL, ...THROUGHPUT, ...LATENCY, ...GENERATION, ...ACCEPTANCE, RULE];

describe('trtllm-bench latency report of 0.15–0.16', () => {
  it('reads it as one complete run with the meanings its source computes, without a warning', () => {
    const { runs: found, diagnostics } = runs(LATENCY_REPORT.join('\n'));
    expect(found).toHaveLength(1);
    expect(found[0]?.complete).toBe(true);
    expect(found[0]?.fields).toMatchObject({
      backend: 'tensorrt',
      model: 'org/model-8b',
      tp: 2,
      max_num_seqs: 1,
      num_prompts: 20,
      mean_input_len: 512,
      mean_output_len: 256,
      mean_e2el_ms: 2100.5,
      request_throughput: 0.4761,
      // token_throughput_ns: output tokens over the total latency
      output_throughput: 121.88,
      mean_gtps: 125.4,
      duration_s: 42.01,
      mean_ttft_ms: 35.25,
      mean_itl_ms: 8.1,
      // total output tokens / decoding iterations: tokens per step
      spec_acceptance_length: 2.4,
      min_generation_latency_ms: 2001,
      max_generation_latency_ms: 2210,
      mean_generation_latency_ms: 2065.25,
      p95_generation_latency_ms: 2190,
      p99_generation_latency_ms: 2205,
      min_spec_acceptance_length: 1.5,
      mean_spec_acceptance_length: 1.5,
      p99_spec_acceptance_length: 1.5,
    });
    expect(found[0]?.fields).not.toHaveProperty('total_token_throughput');
    expect(found[0]?.fields).not.toHaveProperty('generation_token_throughput_tokens_sec');
    expect(diagnostics).toEqual([]);
  });

  it('stores the breakdowns\' P90 line as the median: the source prints the p50 under that label', () => {
    const fields = runs(LATENCY_REPORT.join('\n')).runs[0]?.fields ?? {};
    expect(fields.median_generation_latency_ms).toBe(2050);
    expect(fields.median_spec_acceptance_length).toBe(1.5);
    expect(Object.keys(fields).filter((k) => k.startsWith('p90_'))).toEqual([]);
    expect(statSectionColumn('GENERATION LATENCY BREAKDOWN', 'P90 (ms)')).toBe('median_generation_latency_ms');
    expect(statSectionColumn('ACCEPTANCE BREAKDOWN', 'P90')).toBe('median_spec_acceptance_length');
    expect(statSectionColumn('ACCEPTANCE BREAKDOWN', 'AVG')).toBe('mean_spec_acceptance_length');
  });

  it('never reads the ACCEPTANCE BREAKDOWN rows as the dataset table (no input_len, no dataset_* column)', () => {
    const fields = runs(LATENCY_REPORT.join('\n')).runs[0]?.fields ?? {};
    expect(fields).not.toHaveProperty('input_len');
    expect(fields).not.toHaveProperty('output_len');
    expect(Object.keys(fields).filter((k) => k.startsWith('dataset_'))).toEqual([]);
  });

  it('keeps the 0.18+ PERFORMANCE OVERVIEW Total Token Throughput as input + output', () => {
    const text = section('PERFORMANCE OVERVIEW', 'Request Throughput (req/sec): 1.0000', 'Total Token Throughput (tokens/sec): 300.0000').join('\n');
    expect(runs(text).runs[0]?.fields.total_token_throughput).toBe(300);
    expect(labelSpec('THROUGHPUT OVERVIEW', reportKey('Total Token Throughput (tokens/sec)'))?.column).toBe('output_throughput');
    expect(labelSpec('PERFORMANCE OVERVIEW', reportKey('Total Token Throughput (tokens/sec)'))?.column).toBe('total_token_throughput');
  });

  it('says a latency report cut before its results or its breakdown is truncated', () => {
    const truncated = (lines: string[]) => {
      const { runs: found, diagnostics } = runs(lines.join('\n'));
      return [found.map((r) => r.complete), diagnostics.filter((d) => d.code === 'block/truncated').map((d) => d.message)];
    };
    const [complete, noThroughput] = truncated([...ENGINE, ...WORLD, ...GENERAL]);
    expect(complete).toEqual([false]);
    expect(noThroughput).toEqual([expect.stringContaining('THROUGHPUT OVERVIEW')]);
    expect(truncated([...ENGINE, ...WORLD, ...GENERAL, ...THROUGHPUT])[1]).toEqual([expect.stringContaining('LATENCY OVERVIEW')]);
    expect(truncated([...ENGINE, ...WORLD, ...GENERAL, ...THROUGHPUT, ...LATENCY])[1]).toEqual([expect.stringContaining('generation latency breakdown')]);
  });
});

// TensorRT-LLM's benchmarks/suite (tensorrt_llm_bench, before trtllm-bench): METADATA, ENGINE DETAILS, STATISTICS, COMMANDS
const SUITE_REPORT = [
  ...section('METADATA', 'Model:\t\t\torg/model-13b', 'TP Size:\t\t2', 'PP Size:\t\t1', 'Scheduling Policy:\tMax Utilization', 'In-flight Batcher?:\tTrue', 'Dtype:\t\t\tbfloat16', 'KV Cache Dtype:\t\tFP8', 'Quantization:\t\tFP8', 'KV Memory Percentage:\t92.0%'),
  ...section('ENGINE DETAILS', 'Engine Directory:\t/tmp/org/model-13b', 'Max Batch Size:\t\t512', 'Total Input Length:\t64000', 'Total Output Length:\t32000', 'Max Tokens:\t\t4096'),
  ...section('STATISTICS', 'Throughput (tokens/second):\t9876.54321', 'Total Latency (ms):\t\t3240.0000', 'First Token Latency (ms):\t0.0', 'Token-to-token Latency (ms):\t0.0', 'Peak GPU Memory Usage (GB):\t0.0'),
  ...section('COMMANDS', 'Build: trtllm-build --output_dir /tmp/org/model-13b --max_batch_size 512', 'Benchmark: '),
];

describe('benchmarks/suite report (METADATA layout)', () => {
  it('reads METADATA, ENGINE DETAILS and STATISTICS as one complete run, every label mapped', () => {
    const { runs: found, diagnostics } = runs(SUITE_REPORT.join('\n'));
    expect(found.map((r) => r.at.line)).toEqual([1]);
    expect(found[0]?.complete).toBe(true);
    expect(found[0]?.fields).toMatchObject({
      backend: 'tensorrt',
      model: 'org/model-13b',
      tp: 2,
      pp: 1,
      scheduling_policy: 'MAX_UTILIZATION',
      inflight_batching: true,
      dtype: 'bfloat16',
      kv_cache_dtype: 'FP8',
      quantization: 'FP8',
      kv_cache_free_gpu_memory_fraction: 0.92,
      engine_dir: '/tmp/org/model-13b',
      max_num_seqs: 512,
      total_input_tokens: 64000,
      total_output_tokens: 32000,
      max_num_batched_tokens: 4096,
      output_throughput: 9876.54321,
      duration_s: 3.24,
      build_command: 'trtllm-build --output_dir /tmp/org/model-13b --max_batch_size 512',
      benchmark_command: null,
    });
    expect(diagnostics).toEqual([]);
  });

  it('leaves the 0 the in-flight path prints for TTFT, TPOT and peak memory unset; keeps measured ones', () => {
    const ifb = runs(SUITE_REPORT.join('\n')).runs[0]?.fields ?? {};
    for (const column of ['mean_ttft_ms', 'mean_tpot_ms', 'peak_gpu_memory_gb']) expect(ifb).not.toHaveProperty(column);
    const measured = SUITE_REPORT.map((l) => l.replace('First Token Latency (ms):\t0.0', 'First Token Latency (ms):\t41.5').replace('Token-to-token Latency (ms):\t0.0', 'Token-to-token Latency (ms):\t9.25').replace('Peak GPU Memory Usage (GB):\t0.0', 'Peak GPU Memory Usage (GB):\t61.2'));
    expect(runs(measured.join('\n')).runs[0]?.fields).toMatchObject({ mean_ttft_ms: 41.5, mean_tpot_ms: 9.25, peak_gpu_memory_gb: 61.2 });
  });

  it('starts one run per METADATA section when reports follow one another', () => {
    const second = SUITE_REPORT.map((l) => l.replace('9876.54321', '1234.5'));
    expect(runs([...SUITE_REPORT, ...second].join('\n')).runs.map((r) => [r.fields.model, r.fields.output_throughput])).toEqual([
      ['org/model-13b', 9876.54321],
      ['org/model-13b', 1234.5],
    ]);
  });

  it('maps the METADATA labels of the layout with its limits there, and the 0.12 STATISTICS labels', () => {
    const text = [
      ...section('METADATA', 'Model:\t\t\torg/model-7b', 'TP Size:\t\t1', 'PP Size:\t\t1', 'Max Input Length:\t512', 'Max Output Length:\t256', 'Max Batch Size:\t\t2048', 'Max Tokens:\t\t6144', 'Scheduling Policy:\tGuaranteed No Evict', 'KV Memory Percentage:\t85.0%', 'Issue Rate (req/sec):\t2.5e+16'),
      ...section('ENGINE DETAILS', 'Engine Directory:\t/tmp/e'),
      ...section('STATISTICS', 'Number of requests:\t\t500', 'Average Input Length (tokens):\t512.0', 'Average Output Length (tokens):\t256.0', 'Token Throughput (tokens/sec):\t4321.5', 'Request Throughput (req/sec):\t16.88', 'Total Latency (seconds):\t29.62'),
      RULE,
    ].join('\n');
    const { runs: found, diagnostics } = runs(text);
    expect(found).toHaveLength(1);
    expect(found[0]?.fields).toMatchObject({
      model: 'org/model-7b',
      max_input_len: 512,
      max_output_len: 256,
      max_num_seqs: 2048,
      max_num_batched_tokens: 6144,
      scheduling_policy: 'GUARANTEED_NO_EVICT',
      kv_cache_free_gpu_memory_fraction: 0.85,
      issue_rate: 2.5e16,
      request_rate: Infinity,
      num_prompts: 500,
      output_throughput: 4321.5,
      request_throughput: 16.88,
      duration_s: 29.62,
    });
    expect(diagnostics).toEqual([]);
  });

  it('reads no output total from the first suite report, which prints the input total under that label', () => {
    const first = SUITE_REPORT.map((l) => (l.startsWith('KV Memory Percentage') ? `KV Cache Size (tokens):\t81920\n${l}` : l));
    const fields = runs(first.join('\n')).runs[0]?.fields ?? {};
    expect(fields).toMatchObject({ kv_cache_tokens: 81920, total_input_tokens: 64000 });
    expect(fields).not.toHaveProperty('total_output_tokens');
  });
});
