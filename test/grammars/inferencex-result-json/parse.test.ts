import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/inferencex-result-json/index.js';
import { engineOf, gpuOf } from '../../../grammars/inferencex-result-json/config.js';
import { grammar as genaiPerfJson } from '../../../grammars/genai-perf-json/index.js';
import { grammar as llmperfJson } from '../../../grammars/llmperf-json/index.js';
import { grammar as vllmBenchResultJson } from '../../../grammars/vllm-bench-result-json/index.js';
import { NOT_MINE } from '../../../src/core/grammar.js';
import { servingGpus } from '../../../src/normalize/derived.js';
import { asRelPath } from '../../../src/core/types.js';
import type { FieldValue } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

type Obj = Record<string, unknown>;

/** A single-node processed result (process_result.py, 2026 layout): client output 2000 tok/s, input 6000 tok/s, 8 GPUs. */
function single(extra: Obj = {}): Obj {
  return {
    hw: 'h200',
    conc: 32,
    image: 'lmsysorg/sglang:v0.5.5-cu129',
    model: 'deepseek-ai/DeepSeek-R1-0528',
    infmax_model_prefix: 'dsr1',
    framework: 'sglang',
    precision: 'fp8',
    spec_decoding: 'none',
    disagg: false,
    isl: 8192,
    osl: 1024,
    is_multinode: false,
    tp: 8,
    pp: 1,
    dcp_size: 1,
    pcp_size: 1,
    ep: 1,
    dp_attention: 'false',
    tput_per_gpu: 1000,
    output_tput_per_gpu: 250,
    input_tput_per_gpu: 750,
    mean_ttft: 0.5,
    mean_tpot: 0.025,
    mean_intvty: 40,
    ...extra,
  };
}

/** A disaggregated multi-node result: 2 prefill workers of TP4 (8 GPUs), 1 decode worker of TP16. */
function disagg(extra: Obj = {}): Obj {
  const { tp: _tp, pp: _pp, dcp_size: _d, pcp_size: _p, ep: _ep, dp_attention: _a, ...base } = single();
  return {
    ...base,
    hw: 'gb200',
    framework: 'dynamo-trt',
    precision: 'fp4',
    spec_decoding: 'mtp',
    disagg: true,
    is_multinode: true,
    prefill_tp: 4,
    prefill_ep: 4,
    prefill_dp_attention: 'true',
    prefill_num_workers: 2,
    decode_tp: 16,
    decode_ep: 16,
    decode_dp_attention: 'true',
    decode_num_workers: 1,
    num_prefill_gpu: 8,
    num_decode_gpu: 16,
    // client: total 24000, output 8000, input 16000 tok/s
    tput_per_gpu: 1000,
    output_tput_per_gpu: 500,
    input_tput_per_gpu: 2000,
    ...extra,
  };
}

const parse = (value: unknown) => runGrammar(grammar, JSON.stringify(value, null, 2));
const one = (value: unknown): Obj => runFields(parse(value).records)[0] ?? {};
const head = (value: unknown) => ({ path: asRelPath('agg_x.json'), head: JSON.stringify(value, null, 2) });

describe('inferencex-result-json', () => {
  it('converts the latencies process_result.py wrote in seconds back to ms, percentiles with a dot too', () => {
    const f = one(single({ mean_ttft: 0.4127, median_itl: 0.02195, 'p99.9_e2el': 26.7115856, std_tpot: 0.00061, p90_ttft: 0.6518 }));
    expect(f).toMatchObject({ mean_ttft_ms: 412.7, median_itl_ms: 21.95, 'p99.9_e2el_ms': 26711.5856, std_tpot_ms: 0.61, p90_ttft_ms: 651.8, mean_tpot_ms: 25 });
    expect(f.mean_ttft).toBeUndefined();
  });

  it('leaves out the interactivity (1000 / TPOT) and never writes a derived column', () => {
    const f = one(single({ median_intvty: 41, p99_intvty: 38, std_intvty: 1600 }));
    expect(Object.keys(f).filter((k) => k.includes('intvty'))).toEqual([]);
    for (const derived of ['output_throughput_per_user', 'output_throughput_per_gpu', 'est_mean_e2el_ms']) expect(f[derived]).toBeUndefined();
  });

  it("keeps InferenceX's per-GPU throughputs under their own names and recovers the client's throughputs (tp × pp × pcp GPUs)", () => {
    const f = one(single({ tp: 4, pp: 2 }));
    expect(f).toMatchObject({ tput_per_gpu: 1000, output_tput_per_gpu: 250, input_tput_per_gpu: 750 });
    expect(f).toMatchObject({ total_token_throughput: 8000, output_throughput: 2000, input_throughput: 6000, num_gpus: 8, tp: 4, pp: 2 });
  });

  it('recovers a disaggregated run by its own divisors: total over all GPUs, output over decode, input over prefill', () => {
    const f = one(disagg());
    expect(f).toMatchObject({ total_token_throughput: 24000, output_throughput: 8000, input_throughput: 16000, num_gpus: 24 });
  });

  it('describes a disaggregated run by its decode workers, the prefill ones under prefill_, so benchlens counts every GPU', () => {
    const f = one(disagg());
    expect(f).toMatchObject({ disaggregation: 'pd', tp: 16, ep: 16, enable_dp_attention: true, prefill_tp: 4, prefill_ep: 4, prefill_enable_dp_attention: true });
    expect(f).toMatchObject({ num_prefill_servers: 2, num_decode_servers: 1, num_prefill_gpu: 8, num_decode_gpu: 16 });
    expect(servingGpus(f as Record<string, FieldValue>)).toBe(24);
  });

  it('reads a multi-node run without decode GPUs as aggregated (whatever disagg says): its workers, output over all GPUs', () => {
    const f = one(disagg({ disagg: true, decode_tp: 0, decode_ep: 0, decode_num_workers: 0, prefill_tp: 8, prefill_ep: 8, num_prefill_gpu: 16, num_decode_gpu: 0, tput_per_gpu: 1000, output_tput_per_gpu: 250, input_tput_per_gpu: 750 }));
    expect(f.disaggregation).toBeUndefined();
    expect(f).toMatchObject({ tp: 8, ep: 8, num_workers: 2, num_gpus: 16, output_throughput: 4000, total_token_throughput: 16000, input_throughput: 12000 });
  });

  it('reads the 2025 layouts: TP was the GPU count, a disaggregated run divided output by decode and input by prefill GPUs', () => {
    const legacy = { hw: 'h200', tp: 8, ep: 8, dp_attention: 'true', conc: 64, model: 'm', framework: 'sglang', precision: 'fp8', mean_ttft: 0.3 };
    const agg = one({ ...legacy, isl: 1024, osl: 1024, tput_per_gpu: 500, output_tput_per_gpu: 250, input_tput_per_gpu: 250, disagg: false });
    expect(agg).toMatchObject({ total_token_throughput: 4000, output_throughput: 2000, input_throughput: 2000, num_gpus: 8 });
    const pd = one({ ...legacy, tput_per_gpu: 500, output_tput_per_gpu: 500, input_tput_per_gpu: 1000, disagg: true, num_prefill_gpu: 2, num_decode_gpu: 4 });
    expect(pd).toMatchObject({ total_token_throughput: 4000, output_throughput: 2000, input_throughput: 2000, disaggregation: 'pd', num_gpus: 6 });
    // the first layout: no input_tput_per_gpu, the input throughput is the rest of the total
    const first = one({ ...legacy, tput_per_gpu: 300, output_tput_per_gpu: 100 });
    expect(first).toMatchObject({ total_token_throughput: 2400, output_throughput: 800, input_throughput: 1600 });
  });

  it('warns and recovers no whole-run throughput when the per-GPU values do not add up over the GPU counts', () => {
    const { records, diagnostics } = parse(single({ tput_per_gpu: 500 }));
    const f = runFields(records)[0] ?? {};
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['json/per-gpu-mismatch', 'warning']]);
    expect(f.output_throughput).toBeUndefined();
    expect(f.total_token_throughput).toBeUndefined();
    expect(f).toMatchObject({ tput_per_gpu: 500, output_tput_per_gpu: 250 });
  });

  it('maps the framework to the engine inside it, and the runner type to the GPU', () => {
    expect(['vllm', 'sglang', 'trt', 'dynamo-trt', 'dynamo-sglang', 'dynamo-vllm', 'sglang-disagg', 'mori-sglang', 'atom'].map(engineOf)).toEqual([
      'vllm', 'sglang', 'trtllm', 'trtllm', 'sglang', 'vllm', 'sglang', 'sglang', undefined,
    ]);
    expect(['h200', 'h200-trt', 'b200-nvs', 'mi355x', 'gb200', 'mi300x-amd_0', 'cluster:h200-dgxc'].map(gpuOf)).toEqual(['H200', 'H200', 'B200', 'MI355X', 'GB200', 'MI300X', 'H200']);
    const f = one(single({ framework: 'dynamo-trt', hw: 'b200-trt' }));
    expect(f).toMatchObject({ engine: 'trtllm', framework: 'dynamo-trt', gpu: 'B200', hw: 'b200-trt' });
    expect(one(single({ framework: 'atom' })).engine).toBeUndefined();
  });

  it('reads the precision as a quantization, an unquantized one as the dtype', () => {
    expect(one(single({ precision: 'fp4' }))).toMatchObject({ quantization: 'fp4' });
    const bf16 = one(single({ precision: 'bf16' }));
    expect(bf16).toMatchObject({ dtype: 'bfloat16' });
    expect(bf16.quantization).toBeUndefined();
  });

  it('maps the speculative method, and the older MTP_MODE key', () => {
    expect(one(single({ spec_decoding: 'mtp', num_speculative_tokens: 3 }))).toMatchObject({ spec_method: 'mtp', num_spec_tokens: 3 });
    expect(one(single({ spec_decoding: 'draft_model' }))).toMatchObject({ spec_method: 'draft_model' });
    expect(one(single({ spec_decoding: 'none' }))).toMatchObject({ spec_method: 'none' });
    const { spec_decoding: _s, ...old } = single();
    expect(one({ ...old, mtp: 'on' })).toMatchObject({ spec_method: 'mtp' });
    expect(one({ ...old, mtp: 'off' })).toMatchObject({ spec_method: 'none' });
    expect(one(old).spec_method).toBeUndefined();
  });

  it('maps the identity: model, concurrency, ISL/OSL, client', () => {
    const f = one(single());
    expect(f).toMatchObject({ model: 'deepseek-ai/DeepSeek-R1-0528', model_prefix: 'dsr1', max_concurrency: 32, input_len: 8192, output_len: 1024, client: 'inferencex-benchmark-serving', enable_dp_attention: false });
    expect(one(single({ benchmark_client: 'aiperf' })).client).toBe('aiperf');
  });

  it('reads a collected array as one run per result, each at its own line', () => {
    const { records } = parse([single(), single({ conc: 64 }), disagg()]);
    const runs = records.filter((r) => r.kind === 'run');
    expect(runs.map((r) => r.fields.max_concurrency)).toEqual([32, 64, 32]);
    const lines = runs.map((r) => r.at.line);
    expect(new Set(lines).size).toBe(3);
    expect(lines[0]).toBe(3);
  });

  it('keeps the whole results of a collected array cut short', () => {
    const text = JSON.stringify([single(), single({ conc: 64 }), single({ conc: 128 })], null, 2);
    const cut = text.slice(0, text.lastIndexOf('"conc": 128') + 5);
    const { records, diagnostics } = runGrammar(grammar, cut);
    expect(runFields(records).map((f) => f.max_concurrency)).toEqual([32, 64]);
    // (the third, cut inside its `conc` key, keeps too little to be a result)
    expect(diagnostics.some((d) => d.code === 'json/cut')).toBe(true);
  });

  it('says it ignores a diffusion result (samples/s, no tokens)', () => {
    const { records, diagnostics } = parse([single({ workload_family: 'diffusion', throughput_unit: 'samples/s' }), single()]);
    expect(records).toHaveLength(1);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });

  it('keeps other scalar keys (image) as flag columns, power figures in the shared energy columns, and drops nested ones', () => {
    const f = one(single({ mean_power_w: 5321.4, tok_per_watt_output: 0.3758, router: { name: 'sglang-router', version: '0.2.1' }, output_shape: { width: 1 } }));
    expect(f).toMatchObject({ gpu_power_w: 5321.4, output_tokens_per_joule: 0.3758, image: 'lmsysorg/sglang:v0.5.5-cu129', router: 'sglang-router', router_version: '0.2.1' });
    expect([f.mean_power_w, f.tok_per_watt_output, f.output_shape]).toEqual([undefined, undefined, undefined]);
  });

  it('claims processed results only; the raw client JSON is a vLLM --save-result JSON', () => {
    const raw = {
      date: '20260312-041503', backend: 'vllm', model_id: 'm', tokenizer_id: 'm', best_of: 1, num_prompts: 640, request_rate: 'inf', burstiness: 1.0,
      max_concurrency: 64, duration: 241.7, completed: 640, total_input_tokens: 655360, total_output_tokens: 655360, request_throughput: 2.65,
      'request_goodput:': null, output_throughput: 2711.4, total_token_throughput: 5422.8, mean_ttft_ms: 412.7, mean_tpot_ms: 22.91,
    };
    expect(grammar.detect(head(raw))).toBe(NOT_MINE);
    expect(grammar.detect(head(single()))).toMatchObject({ score: 0.85 });
    expect(grammar.detect(head([single(), disagg()]))).toMatchObject({ score: 0.85 });
    expect(vllmBenchResultJson.detect(head(raw))).toMatchObject({ score: 0.8 });
    for (const other of [vllmBenchResultJson, genaiPerfJson, llmperfJson]) {
      expect(other.detect(head(single()))).toBe(NOT_MINE);
    }
  });
});
