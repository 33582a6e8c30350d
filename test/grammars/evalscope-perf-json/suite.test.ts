import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/evalscope-perf-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const json = (o: unknown): string => JSON.stringify(o, null, 2);
const detect = (o: unknown) => grammar.detect({ head: json(o), path: "summary.json" } as never);

const SUITE = {
  run_id: 'r1',
  suite_config: {
    target: { model: 'acme/tiny', protocol: 'openai_chat', tokenizer: null },
    workload: { name: 'openqa', path: null, min_prompt_length: 0, max_prompt_length: 4096 },
    generation: { max_tokens: 128, min_tokens: null, temperature: 0.5, stream: true, extra: {} },
    suite: { loads: [] },
  },
  runs: [
    {
      run_id: 'r1',
      run_spec: { load_id: '000-conversation', load: { mode: 'conversation', concurrency: 3, conversation_count: 9, max_turns: 4 }, seed: 0, warmup_count: 0, item_limit: 9 },
      summary: {
        total: 30, succeeded: 28, failed: 1, dropped: 1, success_rate: 93.3, duration_seconds: 12.5, request_throughput: 2.24,
        average_input_tokens: 300.5, average_output_tokens: 99.0,
        averages: { latency: 1.5, ttft: 42.0, cache_hit_rate: 0.4, first_turn_ttft: 60.0, subsequent_turn_ttft: 30.0 },
      },
      percentiles: { latency: { minimum: 0.5, p50: 1.4, p99: 3.0, maximum: 3.2 }, ttft: { minimum: 10, p50: 40, p99: 90, maximum: 95 } },
    },
  ],
};

describe('evalscope-perf-json: 2026 perf engine suite folder', () => {
  it('reads suite_summary.json as one run per load, with the suite model and the load', () => {
    const [f] = runFields(runGrammar(grammar, json(SUITE)).records);
    expect(f).toMatchObject({
      model: 'acme/tiny', backend: 'openai_chat', dataset: 'openqa', streaming: true, max_tokens: 128,
      max_concurrency: 3, num_conversations: 9, max_turns: 4, multi_turn: true, load_mode: 'conversation',
      num_requests: 30, completed: 28, failed: 1, dropped: 1, duration_s: 12.5, request_throughput: 2.24,
      mean_e2el_ms: 1500, mean_ttft_ms: 42, prefix_cache_hit_rate: 0.4, mean_first_turn_ttft_ms: 60, mean_subsequent_turn_ttft_ms: 30,
      min_e2el_ms: 500, median_e2el_ms: 1400, p99_e2el_ms: 3000, max_e2el_ms: 3200, p99_ttft_ms: 90,
      total_input_tokens: Math.round(300.5 * 28), total_output_tokens: 99 * 28, client: 'evalscope-perf',
    });
    expect(f?.output_len).toBeUndefined();
  });

  it('reads an open-loop load as a request rate, not a concurrency', () => {
    const open = structuredClone(SUITE);
    (open.runs[0] as { run_spec: unknown }).run_spec = { load_id: '000-open_loop', load: { mode: 'open_loop', request_rate: 4, request_count: 40, max_outstanding: 16 }, warmup_count: 0 };
    (open.runs[0] as { summary: { averages: unknown } }).summary.averages = { latency: 1.5 };
    const [f] = runFields(runGrammar(grammar, json(open)).records);
    expect(f).toMatchObject({ request_rate: 4, num_prompts: 40, max_outstanding: 16 });
    expect(f?.max_concurrency).toBeUndefined();
    expect(f?.multi_turn).toBeUndefined();
  });

  it('claims the per-load summary.json and percentiles.json but reads them from the suite summary only', () => {
    const summary = SUITE.runs[0]?.summary;
    expect(detect(summary)).toMatchObject({ score: 0.6 });
    expect(detect(SUITE)).toMatchObject({ score: 0.85 });
    const r = runGrammar(grammar, json(summary));
    expect(r.records).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
    const p = runGrammar(grammar, json(SUITE.runs[0]?.percentiles));
    expect(p.records).toEqual([]);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });
});

describe('evalscope-perf-json: 2025 multi-turn key names', () => {
  it('maps the late-2025 turns and cache-hit keys to the 2026 columns', () => {
    const [f] = runFields(runGrammar(grammar, JSON.stringify({ 'Time taken for tests (s)': 5, 'Number of concurrency': 2, 'Average input turns per request': 1.5, 'Average approx KV cache hit rate (%)': 40 })).records);
    expect(f).toMatchObject({ mean_input_num_turns: 1.5, prefix_cache_hit_rate: 0.4 });
    expect(f?.average_input_turns_per_request).toBeUndefined();
  });
});
