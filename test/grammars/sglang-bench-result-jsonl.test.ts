import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/sglang-bench-result-jsonl/index.js';
import { latencyKey } from '../../grammars/sglang-bench-result-jsonl/keys.js';

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('r.jsonl'), lines }, sink) as RunRecord[];
  return { records, diagnostics: sink.list() };
}

describe('sglang-bench-result-jsonl', () => {
  it('renames e2e latency keys and keeps the other statistics', () => {
    expect(latencyKey('p99_e2e_latency_ms')).toBe('p99_e2el_ms');
    expect(latencyKey('std_e2e_latency_ms')).toBe('std_e2el_ms');
    expect(latencyKey('p95_itl_ms')).toBe('p95_itl_ms');
    expect(latencyKey('max_output_tokens_per_s')).toBeNull();
  });

  it('reads bare Infinity, renames throughput keys and leaves nulls absent', () => {
    const r = parse(['{"backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "completed": 3, "total_throughput": 9.5, "max_output_tokens_per_s": 40.0, "accept_length": null, "random_input_len": 100}']);
    expect(r.records[0]?.fields).toMatchObject({ request_rate: Infinity, total_token_throughput: 9.5, peak_output_throughput: 40, input_len: 100, engine: 'sglang' });
    expect(r.records[0]?.fields).not.toHaveProperty('spec_acceptance_length');
  });

  it('reads an embedding run (2026 `sglang-embedding`) without output length or per-token latencies', () => {
    const r = parse(['{"backend": "sglang-embedding", "dataset_name": "random", "random_input_len": 256, "random_output_len": 1024, "completed": 10, "total_output_tokens": 0, "mean_e2e_latency_ms": 80.5, "mean_ttft_ms": 0.0, "p99_itl_ms": 0.0, "max_output_tokens_per_s": 10.0}']);
    const fields = r.records[0]?.fields;
    expect(fields).toMatchObject({ input_len: 256, total_output_tokens: 0, mean_e2el_ms: 80.5 });
    for (const column of ['output_len', 'mean_ttft_ms', 'p99_itl_ms', 'peak_output_throughput']) expect(fields).not.toHaveProperty(column);
  });

  it('ignores random_* knobs of non-random datasets', () => {
    const r = parse(['{"backend": "sglang", "dataset_name": "sharegpt", "completed": 3, "random_input_len": 1024, "random_output_len": 1024, "sharegpt_output_len": 200}']);
    expect(r.records[0]?.fields.output_len).toBe(200);
    expect(r.records[0]?.fields).not.toHaveProperty('input_len');
  });

  it('takes --sharegpt-output-len for custom / openai datasets and --random-output-len for mmmu', () => {
    const custom = parse(['{"backend": "sglang-oai-chat", "dataset_name": "openai", "completed": 3, "sharegpt_output_len": 300, "random_input_len": 1024, "random_output_len": 1024}']);
    expect(custom.records[0]?.fields.output_len).toBe(300);
    expect(custom.records[0]?.fields).not.toHaveProperty('input_len');
    const mmmu = parse(['{"backend": "sglang-oai-chat", "dataset_name": "mmmu", "completed": 3, "sharegpt_output_len": null, "random_input_len": 1024, "random_output_len": 48, "random_range_ratio": 0.5}']);
    expect(mmmu.records[0]?.fields.output_len).toBe(48);
    expect(mmmu.records[0]?.fields).not.toHaveProperty('input_len');
    expect(mmmu.records[0]?.fields).not.toHaveProperty('random_range_ratio');
  });

  it("reads a 2026 line's dataset-named keys (DATASET_RESULT_ARG_KEYS): gsp_* as the shared-prefix lengths", () => {
    const gsp = parse(['{"backend": "sglang", "dataset_name": "generated-shared-prefix", "completed": 3, "gsp_num_groups": 8, "gsp_prompts_per_group": 2, "gsp_system_prompt_len": 700, "gsp_question_len": 40, "gsp_output_len": 120, "gsp_range_ratio": 1.0}']);
    expect(gsp.records[0]?.fields).toMatchObject({ output_len: 120, input_len: 40, prefix_len: 700, prefix_num_groups: 8, prefix_users_per_group: 2, gsp_range_ratio: 1 });
    expect(gsp.records[0]?.fields).not.toHaveProperty('gsp_output_len');
    // the same keys on another dataset's line say nothing of its run
    const other = parse(['{"backend": "sglang", "dataset_name": "sharegpt", "completed": 3, "gsp_output_len": 120, "sharegpt_output_len": 64}']);
    expect(other.records[0]?.fields.output_len).toBe(64);
    expect(other.records[0]?.fields).not.toHaveProperty('gsp_output_len');
  });

  it('reads the token totals of the refactor metrics.__dict__ dump and reads past its nested details', () => {
    const details = { input_lens: [5], output_lens: [7], ttfts: [0.1], itls: [[0.01]], generated_texts: ['x'], errors: [''] };
    const r = parse([JSON.stringify({ backend: 'sglang', dataset_name: 'random', completed: 1, total_input: 5, total_output: 7, total_output_retokenized: 6, total_throughput: 6, details })]);
    expect(r.records[0]?.fields).toMatchObject({ total_input_tokens: 5, total_output_tokens: 7, total_output_tokens_retokenized: 6 });
    expect(Object.keys(r.records[0]?.fields ?? {}).filter((k) => /^total_(input|output)(_retokenized)?$|details/.test(k))).toEqual([]);
  });

  it('reads configuration out of server_info, nested state ignored', () => {
    const info = { model_path: 'm/x', tp_size: 8, speculative_algorithm: 'EAGLE', speculative_num_draft_tokens: 6, port: 1, nested: { a: [1, 2] }, version: '0.4.9' };
    const r = parse([JSON.stringify({ backend: 'sglang', completed: 1, duration: 2, server_info: info })]);
    expect(r.records[0]?.fields).toMatchObject({ model: 'm/x', tp: 8, spec_method: 'eagle', spec_num_draft_tokens: 6, num_spec_tokens: 6, engine_version: '0.4.9' });
    expect(r.records[0]?.fields).not.toHaveProperty('port');
  });

  it('reads --cache-report totals, the hit rate as a fraction, and tiers when the server gave them', () => {
    const report = { total_prompt_tokens: 1000, total_cached_tokens: 500, cache_hit_rate_pct: 50.0, device_cached_tokens: 300, host_cached_tokens: 200, storage_cached_tokens: null, storage_backend: null };
    const r = parse([JSON.stringify({ backend: 'sglang', completed: 1, cache_report: report, cached_tokens: [500], cached_tokens_details: [{ device: 300, host: 200 }] })]);
    expect(r.records[0]?.fields).toMatchObject({ total_prompt_tokens: 1000, total_cached_tokens: 500, prefix_cache_hit_rate: 0.5, cached_tokens_device: 300, cached_tokens_host: 200 });
    expect(Object.keys(r.records[0]?.fields ?? {}).filter((k) => /storage|cache_report|^cached_tokens$/.test(k))).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('reads a disaggregated server_info: the decode server configures the run, the prefill server what differs', () => {
    const server = (mode: string, tp: number) => ({ model_path: 'm/moe', tp_size: tp, disaggregation_mode: mode, chunked_prefill_size: 8192, version: '0.5.9', internal_states: [{ avg_spec_accept_length: mode === 'decode' ? 2.5 : null }] });
    const info = { internal_states: [{ avg_spec_accept_length: null }], prefill: [server('prefill', 8)], decode: [server('decode', 16), server('decode', 16)] };
    const r = parse([JSON.stringify({ backend: 'sglang', completed: 1, server_info: info })]);
    expect(r.records[0]?.fields).toMatchObject({ model: 'm/moe', tp: 16, prefill_tp: 8, engine_version: '0.5.9', disaggregation: 'pd', num_prefill_servers: 1, num_decode_servers: 2, spec_acceptance_length: 2.5, chunked_prefill_size: 8192 });
    expect(Object.keys(r.records[0]?.fields ?? {}).filter((k) => k.startsWith('prefill_'))).toEqual(['prefill_tp']);
    const prefillOnly = parse([JSON.stringify({ backend: 'sglang', completed: 1, server_info: { prefill: [server('prefill', 8)], decode: [] } })]);
    expect(prefillOnly.records[0]?.fields).toMatchObject({ model: 'm/moe', tp: 8, num_decode_servers: 0 });
    expect(prefillOnly.records[0]?.fields).not.toHaveProperty('prefill_tp');
  });

  it('keeps the runs before a line cut short', () => {
    const r = parse(['{"backend": "sglang", "completed": 1, "duration": 2.0}', '{"backend": "sglang", "completed": ']);
    expect(r.records.map((x) => x.at.line)).toEqual([1]);
    // the cut line holds only its backend: no result, and the cut is said
    expect(r.diagnostics.map((d) => d.code)).toEqual(['json/cut', 'json/not-a-result']);
  });
});
