import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/llm-load-test-json/index.js';
import { grammar as llmperfJson } from '../../../grammars/llmperf-json/index.js';
import { NOT_MINE } from '../../../src/core/grammar.js';
import { SkimPaths, skimJsonFile } from '../../../src/ingest/json-skim.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const stats = (base: number): Record<string, number> => ({
  min: base * 0.5,
  max: base * 2,
  median: base,
  mean: base * 1.1,
  percentile_80: base * 1.3,
  percentile_90: base * 1.5,
  percentile_95: base * 1.7,
  percentile_99: base * 1.9,
});

/** An output file as utils.write_output writes it (json.dumps indent=2), with one request. */
function output(summary: Record<string, unknown>, config: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      results: [{ user_id: 0, input_id: 7, input_tokens: 512, output_text: 'hi', output_tokens: 128, output_tokens_before_timeout: 128, tt_ack: 3.5, ttft: 120, itl: 20, tpot: 20.8, error_code: null, error_text: null }],
      config: {
        load_options: { type: 'constant', concurrency: 8, duration: 60 },
        plugin: 'openai_plugin',
        plugin_options: { streaming: true, model_name: 'acme/model-8b', host: 'http://h:8000', endpoint: '/v1/chat/completions' },
        dataset: { file: 'datasets/openorca_large_subset_011.jsonl', max_queries: 1000 },
        ...config,
      },
      summary,
    },
    null,
    2,
  );
}

const one = (text: string): Record<string, unknown> => runFields(runGrammar(grammar, text).records)[0] ?? {};

describe('llm-load-test-json', () => {
  it("maps its itl (decode time per token after the first) to tpot and its tpot (TTFT included) to ntpot", () => {
    const f = one(output({ itl: stats(20), tpot: stats(21), ttft: stats(100), total_requests: 10, total_failures: 0 }));
    expect(f).toMatchObject({ mean_tpot_ms: 22, median_tpot_ms: 20, p99_tpot_ms: 38, min_tpot_ms: 10, mean_ntpot_ms: 23.1, p80_ntpot_ms: 27.3, median_ttft_ms: 100 });
    expect(Object.keys(f).filter((k) => /_itl_ms$/.test(k))).toEqual([]);
  });

  it('keeps response time (ms already) as e2el and token counts as lengths', () => {
    const f = one(output({ response_time: stats(4000), output_tokens: stats(200), input_tokens: stats(500), tt_ack: stats(4), total_requests: 10, total_failures: 0 }));
    expect(f).toMatchObject({ median_e2el_ms: 4000, p95_e2el_ms: 6800, median_output_len: 200, median_input_len: 500, median_tt_ack_ms: 4 });
  });

  it('reads throughput_full_duration as the output throughput, and throughput as the within-duration one', () => {
    const f = one(output({ throughput_full_duration: 950.5, full_duration: 64.25, throughput: 900, total_requests: 100, total_failures: 0 }));
    expect(f).toMatchObject({ output_throughput: 950.5, output_throughput_within_duration: 900, duration_s: 64.25 });
  });

  it("reads the early summary's throughput (over the requests' wall time) as the output throughput", () => {
    const f = one(output({ throughput: 875.25, total_requests: 100, total_failures: 2 }));
    expect(f.output_throughput).toBe(875.25);
    expect(f).not.toHaveProperty('output_throughput_within_duration');
  });

  it('derives completed, token totals and request throughput from the summary, and the failure rate as a fraction', () => {
    const f = one(output({ full_duration: 50, total_requests: 52, total_failures: 2, failure_rate: 3.8461538461538463, output_tokens: stats(200), input_tokens: stats(500) }));
    expect(f).toMatchObject({ num_requests: 52, failed: 2, completed: 50, total_output_tokens: 11000, total_input_tokens: 27500, request_throughput: 1, error_rate: 0.0384615384615 });
  });

  it("leaves pandas' NaN statistics (no request succeeded) out", () => {
    const text = output({ ttft: { min: 1, mean: 2 }, total_requests: 4, total_failures: 4, failure_rate: 100 }).replace('"min": 1', '"min": NaN').replace('"mean": 2', '"mean": NaN');
    const f = one(text);
    expect(f).toMatchObject({ completed: 0, failed: 4, error_rate: 1 });
    expect(f).not.toHaveProperty('mean_ttft_ms');
    expect(f).not.toHaveProperty('min_ttft_ms');
  });

  it('takes model, concurrency, duration, dataset and endpoint from the config', () => {
    const f = one(output({ total_requests: 1, total_failures: 0 }));
    expect(f).toMatchObject({ client: 'llm-load-test', backend: 'openai_plugin', model: 'acme/model-8b', max_concurrency: 8, target_duration_s: 60, dataset: 'openorca_large_subset_011.jsonl', dataset_path: 'datasets/openorca_large_subset_011.jsonl', endpoint_type: 'chat', streaming: true });
    // the plugin speaks OpenAI's API to any server: no engine
    expect(f).not.toHaveProperty('engine');
  });

  it('names the engine only when the plugin names the server', () => {
    expect(one(output({ total_requests: 1, total_failures: 0 }, { plugin: 'hf_tgi_plugin' })).engine).toBe('tgi');
    expect(one(output({ total_requests: 1, total_failures: 0 }, { plugin: 'vllm_plugin' })).engine).toBe('vllm');
    expect(one(output({ total_requests: 1, total_failures: 0 }, { plugin: 'tgis_grpc_plugin' }))).not.toHaveProperty('engine');
  });

  it("counts an embedding plugin's throughput as input tokens", () => {
    const f = one(output({ throughput_full_duration: 44000, throughput: 43000, throughput_per_object: 190, total_tokens: 2000000, total_requests: 100, total_failures: 0 }, { plugin: 'caikit_embedding_plugin' }));
    expect(f).toMatchObject({ input_throughput: 44000, input_throughput_within_duration: 43000, object_throughput: 190, total_input_tokens: 2000000 });
    expect(f).not.toHaveProperty('output_throughput');
  });

  it('makes no run of a file without a summary, and says so', () => {
    const { records, diagnostics } = runGrammar(grammar, JSON.stringify({ results: [{ TT_ack: 1, TTFT: 2, TPOT: 3, worker_id: 0 }], config: { load_options: { concurrency: 1 } } }));
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });

  it('detects the output by the first request alone (a long output_text filling the head)', () => {
    const head = `{\n  "results": [\n    {\n      "user_id": 0,\n      "input_id": 12,\n      "input_tokens": 90,\n      "output_text": "${'x'.repeat(70000)}`.slice(0, 65536);
    expect(grammar.detect({ path: asRelPath('output/output-8.json'), head })).not.toBe(NOT_MINE);
    // a JSON with results but none of RequestResult's keys is not ours
    expect(grammar.detect({ path: asRelPath('o.json'), head: '{"results": [{"name": "a", "score": 1}]}' })).toBe(NOT_MINE);
    // nor is an llmperf summary
    const llmperf = '{\n    "results_ttft_s_mean": 0.2,\n    "results_num_completed_requests": 10\n}';
    expect(llmperfJson.detect({ path: asRelPath('s.json'), head: llmperf })).not.toBe(NOT_MINE);
    expect(grammar.detect({ path: asRelPath('s.json'), head: llmperf })).toBe(NOT_MINE);
  });

  it('gives the same run when the per-request results are skimmed away (a large file)', () => {
    const path = fileURLToPath(new URL('../../../fixtures/llm-load-test-json/basic/input.json', import.meta.url));
    const skimmed = skimJsonFile(path, SkimPaths.of(grammar.skim ?? []) as SkimPaths, 1 << 26);
    expect(skimmed.kind).toBe('skimmed');
    if (skimmed.kind !== 'skimmed') return;
    const whole = runGrammar(grammar, readFileSync(path, 'utf8'));
    const lean = runGrammar(grammar, skimmed.bytes.toString('utf8'));
    expect(lean.records).toEqual(whole.records);
    expect(skimmed.bytes.length).toBeLessThan(readFileSync(path).length / 2);
  });
});
