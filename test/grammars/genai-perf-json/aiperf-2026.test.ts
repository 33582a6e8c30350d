import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** An AIPerf export with the given extra top-level keys. */
function exportOf(extra: Record<string, unknown>): string {
  return JSON.stringify(
    {
      schema_version: '1.5',
      aiperf_version: '0.9.0',
      request_throughput: { unit: 'requests/sec', avg: 2 },
      request_latency: { unit: 'ms', avg: 700, p50: 690, count: 40, sum: 28000 },
      ...extra,
    },
    null,
    2,
  );
}

describe('genai-perf-json, AIPerf 2026 exports', () => {
  it('reads the load of the profiling phase of a config v2, not the warm-up before it', () => {
    const text = exportOf({
      input_config: {
        models: { items: [{ name: 'acme/tiny' }] },
        datasets: [{ name: 'default', type: 'synthetic', prompts: { isl: 128, osl: { value: 32.0 } } }],
        phases: [
          { name: 'warmup', type: 'poisson', requests: 5, concurrency: 1, rate: 0.5 },
          { name: 'profiling', type: 'poisson', requests: 40, concurrency: 6, rate: 2.5 },
        ],
      },
    });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run).toMatchObject({ model: 'acme/tiny', max_concurrency: 6, request_rate: 2.5, num_prompts: 40, input_len: 128, output_len: 32 });
  });

  it('takes a length distribution by its mean and leaves percentile-shaped ones alone', () => {
    const text = exportOf({
      input_config: { datasets: [{ name: 'default', type: 'synthetic', prompts: { isl: { mean: 900.0, stddev: 40.0 }, osl: { p50: 100, p99: 400 } } }] },
    });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run?.input_len).toBe(900);
    expect(run).not.toHaveProperty('output_len');
  });

  it('reads the command kept in run_info when the config has none', () => {
    const text = exportOf({
      run_info: { trial: 0, run_label: 'run_0001', cli_command: 'aiperf profile --model acme/tiny --concurrency 3 --isl 64 --osl 16 --streaming' },
      input_config: { endpoint: { urls: ['http://localhost:8000'] } },
    });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run).toMatchObject({ client: 'aiperf', model: 'acme/tiny', max_concurrency: 3, input_len: 64, output_len: 16, streaming: true });
  });

  it('gives the run-level speculative-decoding values the spec_* columns and keeps per-request means apart', () => {
    const text = exportOf({
      spec_decode_acceptance_length: { unit: 'ratio', avg: 3.1, p50: 3.0, count: 40 },
      spec_decode_token_weighted_acceptance_length: { unit: 'ratio', avg: 2.9 },
      spec_decode_draft_acceptance_rate: { unit: '%', avg: 70, p99: 99 },
      spec_decode_overall_draft_acceptance_rate: { unit: '%', avg: 64 },
      total_spec_decode_steps: { unit: 'count', avg: 500 },
      total_accepted_draft_tokens: { unit: 'tokens', avg: 950 },
      total_draft_tokens: { unit: 'tokens', avg: 1500 },
    });
    const { records, diagnostics } = runGrammar(grammar, text);
    const [run] = runFields(records);
    expect(run).toMatchObject({
      spec_acceptance_length: 2.9,
      spec_acceptance_rate: 0.64,
      spec_num_drafts: 500,
      spec_accepted_tokens: 950,
      spec_draft_tokens: 1500,
      spec_decode_acceptance_length: 3.1,
      median_spec_decode_acceptance_length: 3,
      spec_decode_draft_acceptance_rate: 0.7,
      p99_spec_decode_draft_acceptance_rate: 0.99,
    });
    expect(diagnostics.map((d) => d.code)).not.toContain('table/unknown-metric');
  });

  it('still reads an average-only Acceptance Length header as the run value (AIPerf records layout)', () => {
    const text = JSON.stringify({ records: { al: { tag: 'al', header: 'Acceptance Length', unit: 'tokens', avg: 2.4 }, request_latency: { tag: 'request_latency', header: 'Request Latency', unit: 'ms', avg: 10 } } });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run?.spec_acceptance_length).toBe(2.4);
  });

  it('leaves warm-up metrics, DAG branch counters and submission reasons out of the run', () => {
    const text = exportOf({
      warmup_metrics: { request_latency: { unit: 'ms', avg: 5000, p50: 4900 } },
      branch_stats: { children_spawned: 4, children_completed: 4 },
      runtime_submission_invalid_reasons: ['context_overflow_rate'],
    });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run?.mean_e2el_ms).toBe(700);
    expect(Object.keys(run ?? {}).filter((k) => /warmup|branch|children|submission/.test(k))).toEqual([]);
  });
});

describe('genai-perf-json, latency names', () => {
  const latencies = { inter_token_latency: { unit: 'ms', avg: 8.78, min: 8.02, p99: 9.9 }, inter_chunk_latency: { unit: 'ms', avg: 8.85, min: 0, p99: 16.04 } };
  it("reads AIPerf's inter token latency (decode time over the tokens after the first, one a request) as TPOT and its inter chunk latency as ITL", () => {
    const [run] = runFields(runGrammar(grammar, exportOf(latencies)).records);
    expect(run).toMatchObject({ client: 'aiperf', mean_tpot_ms: 8.78, min_tpot_ms: 8.02, p99_tpot_ms: 9.9, mean_itl_ms: 8.85, min_itl_ms: 0, p99_itl_ms: 16.04 });
    expect(Object.keys(run ?? {}).filter((k) => k.includes('_icl_'))).toEqual([]);
  });
  it("reads GenAI-Perf's inter token latency (one a response) as ITL", () => {
    const text = JSON.stringify({ request_throughput: { unit: 'requests/sec', avg: 2 }, inter_token_latency: { unit: 'ms', avg: 8.78, p99: 9.9 }, request_latency: { unit: 'ms', avg: 700 } });
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run).toMatchObject({ client: 'genai-perf', mean_itl_ms: 8.78, p99_itl_ms: 9.9 });
    expect(run?.mean_tpot_ms).toBeUndefined();
  });
});
