import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/inferencex-result-json/index.js';
import type { BenchRecord } from '../../../src/core/records.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** A nested agentic aggregate (utils/agentic/aggregation/process_agentic_result.py layout), own values. */
function nested(extra: Record<string, unknown> = {}, request: Record<string, unknown> = {}, server: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hw: 'h100-dgxc', conc: 4, model: 'acme/tiny-coder', framework: 'sglang', precision: 'bf16', spec_decoding: 'none', disagg: false,
    scenario_type: 'agentic-coding', is_multinode: false, tp: 2, ep: 1, dp_attention: 'false', kv_offloading: 'none', kv_offload_backend: null,
    num_requests_total: 110, num_requests_successful: 100,
    request_accounting: { records_total: 110, records_profiled: 100, records_warmup_dropped: 8, records_error_dropped: 2 },
    pp: 1, dcp_size: 1, pcp_size: 1,
    request_metrics: {
      qps: { window_seconds: 1.0, samples: 49, mean: 2.0, p50: 2.0, std: 0.5 },
      latency: {
        ttft: { mean: 0.21, p50: 0.2, p90: 0.35, p99: 0.5, std: 0.05 },
        e2el: { mean: 3.5, p50: 3.0 },
        itl: { mean: 0.0125, p50: 0.012 },
        tpot: { mean: 0.0125, p50: 0.012 },
        intvty: { mean: 80.0, p50: 83.33333 },
      },
      tokens: { input: { mean: 3000.5, p95: 7000.0 }, output_actual: { mean: 150.25 }, output_expected: {} },
      throughput: {
        input: { tokens_per_second: 6001.0 }, output: { tokens_per_second: 300.5 }, total: { tokens_per_second: 6301.5 },
        duration_seconds: 50.0, per_gpu: { total_tput_tps: 3150.75, output_tput_tps: 150.25, input_tput_tps: 3000.5 },
      },
      cache: { theoretical_cache_hit_rate: 0.75 },
      stability: {},
      ...request,
    },
    server_metrics: {
      present: true, adapter: 'sglang', metric_count: 12,
      cache: { gpu_cache_hit_rate: 0.5, cpu_cache_hit_rate: 0.125, external_cache_hit_rate: 0.125, overall_cache_hit_rate: 0.625, cached_tokens_by_source: { device: 150000.0, host: 37500.0 } },
      kv_cache: { gpu_usage_pct: 0.5, gpu_total_tokens: 900000, cpu_usage_pct: null },
      kv_offload: { bytes_gpu_to_cpu: 4000000, time_gpu_to_cpu: 2.0, bandwidth_gpu_to_cpu_bytes_per_second: 2000000.0 },
      tokens: { prompt_total: 300000, generation_total: 15025, requests_completed: 100, prompt_by_source: { gpu_cache_hit: 150000.0, cpu_or_external_cache_hit: 37500.0, computed: 112500.0, raw: {} } },
      sources: [],
      ...server,
    },
    kv_cache_pool_tokens: 900000,
    ...extra,
  };
}

const text = (value: unknown): string => JSON.stringify(value, null, 2);

function only(records: BenchRecord[]): Record<string, unknown> {
  const fields = runFields(records);
  expect(fields).toHaveLength(1);
  return fields[0] as Record<string, unknown>;
}

describe('inferencex-result-json nested agentic aggregates', () => {
  it('is detected by its nested keys, without the flat per-GPU keys', () => {
    const head = text(nested());
    expect(grammar.detect({ path: asRelPath('agg_x.json'), head }).score).toBeGreaterThan(0);
    // an AIPerf server metrics export or any JSON naming request_metrics alone is not claimed
    expect(grammar.detect({ path: asRelPath('x.json'), head: text({ request_metrics: {}, server_metrics: {}, scenario_type: 'x' }) }).score).toBe(0);
    expect(grammar.detect({ path: asRelPath('x.json'), head: text({ hw: 'h100', conc: 1, framework: 'vllm', request_metrics: {} }) }).score).toBe(0);
  });

  it('reads the request metrics under canonical columns, latencies from s to ms, p50 as the median', () => {
    const { records, diagnostics } = runGrammar(grammar, text(nested()));
    expect(diagnostics).toEqual([]);
    const f = only(records);
    expect(f).toMatchObject({
      client: 'aiperf', engine: 'sglang', gpu: 'H100', dtype: 'bfloat16', max_concurrency: 4, tp: 2, num_gpus: 2,
      mean_ttft_ms: 210, median_ttft_ms: 200, p90_ttft_ms: 350, p99_ttft_ms: 500, std_ttft_ms: 50,
      mean_e2el_ms: 3500, mean_itl_ms: 12.5, mean_tpot_ms: 12.5, median_itl_ms: 12,
      mean_input_len: 3000.5, p95_input_len: 7000, mean_output_len: 150.25,
      input_throughput: 6001, output_throughput: 300.5, total_token_throughput: 6301.5, duration_s: 50,
      request_throughput: 2, completed: 100, num_requests_warmup: 8, num_requests_errored: 2,
      tput_per_gpu: 3150.75, output_tput_per_gpu: 150.25, input_tput_per_gpu: 3000.5,
      mean_qps: 2, median_qps: 2, qps_window_s: 1, theoretical_cache_hit_rate: 0.75,
    });
    // interactivity (1 / ITL) is derivable, never read; the nested objects never become columns
    expect(Object.keys(f).filter((k) => k.includes('intvty') || k === 'request_metrics' || k === 'server_metrics')).toEqual([]);
  });

  it('reads the server metrics: the overall hit rate as prefix_cache_hit_rate, the tiers under their own names', () => {
    const f = only(runGrammar(grammar, text(nested())).records);
    expect(f).toMatchObject({
      prefix_cache_hit_rate: 0.625, gpu_prefix_cache_hit_rate: 0.5, cpu_prefix_cache_hit_rate: 0.125, external_prefix_cache_hit_rate: 0.125,
      cached_tokens_device: 150000, cached_tokens_host: 37500, server_gpu_kv_cache_usage: 0.5, kv_cache_pool_tokens: 900000,
      kv_offload_bytes_gpu_to_cpu: 4000000, kv_offload_time_gpu_to_cpu: 2, kv_offload_bandwidth_gpu_to_cpu: 2000000,
      total_prompt_tokens: 300000, total_generation_tokens: 15025, prompt_tokens_gpu_cache_hit: 150000, prompt_tokens_computed: 112500,
      server_metrics_adapter: 'sglang',
    });
    // null upstream (no such counter): no column
    expect(f).not.toHaveProperty('server_cpu_kv_cache_usage');
  });

  it('keeps every value at its own line', () => {
    const source = text(nested());
    const lines = source.split('\n');
    const [record] = runGrammar(grammar, source).records;
    const at = (column: string): string => lines[((record as { lines: Record<string, number> }).lines[column] ?? 0) - 1] ?? '';
    expect(at('p99_ttft_ms')).toContain('"p99": 0.5');
    expect(at('duration_s')).toContain('"duration_seconds"');
    expect(at('output_tput_per_gpu')).toContain('"output_tput_tps"');
    expect(at('prefix_cache_hit_rate')).toContain('"overall_cache_hit_rate"');
    expect(at('cached_tokens_host')).toContain('"host"');
    expect(at('num_requests_errored')).toContain('"records_error_dropped"');
  });

  it('reads the kv_offload_backend object (name, version)', () => {
    const f = only(runGrammar(grammar, text(nested({ kv_offloading: 'dram', kv_offload_backend: { name: 'lmcache', version: '0.5.1' } }))).records);
    expect(f).toMatchObject({ kv_offloading: 'dram', kv_offload_backend: 'lmcache', kv_offload_backend_version: '0.5.1' });
  });

  it('reads such an element of a collect_results.py array like the file', () => {
    const fixed = { hw: 'h100', conc: 8, model: 'm', framework: 'vllm', precision: 'fp8', is_multinode: false, tp: 2, tput_per_gpu: 10, output_tput_per_gpu: 4, input_tput_per_gpu: 6 };
    const source = text([fixed, nested()]);
    const { records, diagnostics } = runGrammar(grammar, source);
    expect(diagnostics).toEqual([]);
    const fields = runFields(records);
    expect(fields).toHaveLength(2);
    expect(fields[1]).toMatchObject({ client: 'aiperf', mean_ttft_ms: 210, output_throughput: 300.5, prefix_cache_hit_rate: 0.625 });
    expect(records[1]?.kind === 'run' && records[1].at.line).toBe(source.split('\n').findIndex((l) => l.includes('"h100-dgxc"')) + 1);
  });

  it('divides over every GPU of a multi-node run, and warns when the per-GPU values disagree with it', () => {
    const multinode = {
      is_multinode: true, disagg: true, tp: 3, prefill_num_workers: 1, prefill_tp: 1, num_prefill_gpu: 1, decode_num_workers: 1, decode_tp: 2, num_decode_gpu: 2,
    };
    const good = only(runGrammar(grammar, text(nested(multinode, { throughput: { total: { tokens_per_second: 300 }, output: { tokens_per_second: 30 }, input: { tokens_per_second: 270 }, per_gpu: { total_tput_tps: 100, output_tput_tps: 10, input_tput_tps: 90 } } }))).records);
    expect(good).toMatchObject({ disaggregation: 'pd', num_gpus: 3, tp: 2, prefill_tp: 1, tput_per_gpu: 100, total_token_throughput: 300 });
    const { records, diagnostics } = runGrammar(grammar, text(nested(multinode, { throughput: { total: { tokens_per_second: 300 }, per_gpu: { total_tput_tps: 150 } } })));
    expect(diagnostics.map((d) => d.code)).toEqual(['json/per-gpu-mismatch']);
    // both are written: both are kept
    expect(only(records)).toMatchObject({ tput_per_gpu: 150, total_token_throughput: 300 });
  });

  it('reads what it can of damaged metrics, never throwing', () => {
    const damaged = nested({}, { latency: 'n/a', tokens: null, throughput: { total: [1, 2], duration_seconds: '0', per_gpu: 7 }, qps: { mean: 'fast' } }, { cache: [], kv_cache: { gpu_usage_pct: 'high' }, tokens: 3 });
    const { records, diagnostics } = runGrammar(grammar, text(damaged));
    expect(diagnostics).toEqual([]);
    const f = only(records);
    expect(f).toMatchObject({ client: 'aiperf', completed: 100, theoretical_cache_hit_rate: 0.75, duration_s: 0 });
    expect(f).not.toHaveProperty('mean_ttft_ms');
    expect(f).not.toHaveProperty('request_throughput');
    expect(f).not.toHaveProperty('prefix_cache_hit_rate');
  });
});
