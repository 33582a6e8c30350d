import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/evalscope-perf-json/index.js';
import { ownName } from '../../../grammars/evalscope-perf-json/summary.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const json = (o: unknown): string => JSON.stringify(o, null, 4);
const run = (o: Record<string, unknown>): Record<string, unknown> => runFields(runGrammar(grammar, json(o)).records)[0] ?? {};
const config = (o: Record<string, unknown>): Record<string, unknown> => {
  const r = runGrammar(grammar, json(o)).records[0];
  return r?.kind === 'config' ? { ...r.fields, origin: r.origin } : {};
};
const ARGS = { model: 'org/m', parallel: 8, number: 64, log_every_n_query: 10, dataset: 'openqa', max_tokens: 512 };

describe('evalscope-perf-json', () => {
  it('converts second latencies to ms (2024/2025 keys) and keeps ms keys (2026) as they are', () => {
    expect(run({ 'Time taken for tests (s)': 10, 'Number of concurrency': 2, 'Average latency (s)': 1.25, 'Average time to first token (s)': 0.0315 })).toMatchObject({ mean_e2el_ms: 1250, mean_ttft_ms: 31.5 });
    expect(run({ 'Test Duration (s)': 10, Concurrency: 2, 'Avg Latency (s)': 1.25, 'TTFT (ms)': 31.5, 'TPOT (ms)': 9.5 })).toMatchObject({ mean_e2el_ms: 1250, mean_ttft_ms: 31.5, mean_tpot_ms: 9.5 });
  });

  it('reads a request rate of -1 as no limit (Infinity), a positive one as it is', () => {
    expect(run({ 'Time taken for tests (s)': 10, Concurrency: 2, 'Request rate (req/s)': -1 }).request_rate).toBe(Infinity);
    expect(run({ 'Test Duration (s)': 10, Concurrency: 2, 'Request Rate (req/s)': 4 }).request_rate).toBe(4);
    expect(config({ ...ARGS, rate: -1 }).request_rate).toBe(Infinity);
  });

  it('totals tokens from the successful requests mean, never from all requests', () => {
    const f = run({ 'Time taken for tests (s)': 10, 'Total requests': 10, 'Succeed requests': 8, 'Average output tokens per request': 100.5 });
    expect(f.total_output_tokens).toBe(804);
    expect(f.num_requests).toBe(10);
  });

  it('takes max_tokens as output_len only when min_tokens equals it or ignore_eos is set', () => {
    expect(config(ARGS).output_len).toBeUndefined();
    expect(config({ ...ARGS, min_tokens: 512 }).output_len).toBe(512);
    expect(config({ ...ARGS, min_tokens: 16 }).output_len).toBeUndefined();
    expect(config({ ...ARGS, extra_args: { ignore_eos: true } }).output_len).toBe(512);
  });

  it('gives the args file as a bench-config of the evalscope client, list parallel of one as the run’s, a sweep list as none', () => {
    expect(config({ ...ARGS, parallel: [8], number: [64] })).toMatchObject({ origin: 'bench-config', client: 'evalscope-perf', max_concurrency: 8, num_prompts: 64 });
    const sweep = config({ ...ARGS, parallel: [1, 8], number: [10, 64] });
    expect(sweep.max_concurrency).toBeUndefined();
    expect(sweep.num_prompts).toBeUndefined();
  });

  it('never reads credentials or headers', () => {
    const c = config({ ...ARGS, api_key: 'sk-secret', headers: { Authorization: 'Bearer sk-secret' }, wandb_api_key: 'w', swanlab_api_key: 's' });
    expect(JSON.stringify(c)).not.toContain('sk-secret');
    expect(Object.keys(c).some((k) => /api_key|headers/.test(k))).toBe(false);
  });

  it('reads a random dataset length only when min and max prompt lengths agree', () => {
    expect(config({ ...ARGS, dataset: 'random', min_prompt_length: 1024, max_prompt_length: 1024 }).input_len).toBe(1024);
    const spread = config({ ...ARGS, dataset: 'random', min_prompt_length: 100, max_prompt_length: 2000 });
    expect(spread).toMatchObject({ input_len_min: 100, input_len_max: 2000, input_len_distribution: 'uniform' });
    expect(spread.input_len).toBeUndefined();
    expect(config({ ...ARGS, min_prompt_length: 1024, max_prompt_length: 1024 }).input_len).toBeUndefined();
  });

  it('reads the percentile table (rows or columns) as more results of its run, in ms, never as a run', () => {
    for (const table of [
      [{ Percentiles: '50%', 'TTFT (ms)': 30 }, { Percentiles: '99%', 'TTFT (ms)': 80 }],
      { Percentiles: ['50%', '99%'], 'TTFT (s)': [0.03, 0.08], 'Latency (s)': [1, 2] },
    ]) {
      const text = json(table);
      expect(grammar.detect({ head: text, path: 'benchmark_percentile.json' } as never)).toMatchObject({ score: 0.8 });
      const { records, diagnostics } = runGrammar(grammar, text);
      expect(records.map((r) => [r.kind, r.kind === 'config' ? r.origin : null])).toEqual([['config', 'bench-metrics']]);
      expect(records[0]?.kind === 'config' ? records[0].fields : null).toMatchObject({ client: 'evalscope-perf', median_ttft_ms: 30, p99_ttft_ms: 80 });
      expect(diagnostics).toEqual([]);
    }
    // a table of no latency or length column: said, not kept
    const { records, diagnostics } = runGrammar(grammar, json([{ Percentiles: '50%', 'TTFT (ms)': 'n/a', 'Output (tok/s)': 12 }]));
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });

  it('detects by content: a summary or args without evalscope keys is not its', () => {
    expect(grammar.detect({ head: json({ model: 'm', parallel: 1, number: 2 }), path: 'benchmark_args.json' } as never)).toMatchObject({ score: 0 });
    expect(grammar.detect({ head: json({ duration: 1, completed: 2 }), path: 'benchmark_summary.json' } as never)).toMatchObject({ score: 0 });
  });

  it('reads a multi-turn run (2026) as one: its turns, cache hit rate and first / later-turn TTFT; a single-turn run is not one', () => {
    const base = { 'Test Duration (s)': 60, Concurrency: 8, 'Total Requests': 240, 'Success Requests': 240, 'Failed Requests': 0, 'TTFT (ms)': 88.4 };
    const multi = run({ ...base, 'Avg Turns/Request': 3.42, 'KV Cache Hit Rate (%)': 61.8, 'First-Turn TTFT (ms)': 301.55, 'Subsequent-Turn TTFT (ms)': 51.2 });
    expect(multi).toMatchObject({ multi_turn: true, mean_input_num_turns: 3.42, prefix_cache_hit_rate: 0.618, mean_first_turn_ttft_ms: 301.55, mean_subsequent_turn_ttft_ms: 51.2 });
    expect(run(base)).not.toHaveProperty('multi_turn');
  });

  it('names an unknown metric after its key', () => {
    expect(ownName('Decoded Tok/Iter')).toBe('decoded_tok_iter');
    expect(ownName('First-Turn TTFT (ms)')).toBe('first_turn_ttft_ms');
    expect(ownName('Spec. Accept Rate (%)')).toBe('spec_accept_rate_pct');
  });
});
