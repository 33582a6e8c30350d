import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammar, isoDurationSeconds } from '../../../grammars/llmd-benchmark-report/index.js';
import { engineOf, engineVersionOf, gpuOf } from '../../../grammars/llmd-benchmark-report/stack.js';
import { asRelPath } from '../../../src/core/types.js';
import { FIXTURES } from '../../helpers/fixtures.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const path = asRelPath('benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml');

/** A v0.2 report as `export_json` writes it (keys in model order), with parts replaced. */
function jsonReport(parts: { stack?: unknown[]; load?: object; aggregate?: object; results?: object; run?: object } = {}): string {
  return JSON.stringify({
    version: '0.2',
    run: parts.run ?? { uid: 'u1', eid: 'e1', time: { start: '2026-01-01T10:00:00', end: '2026-01-01T10:05:00', duration: 'PT5M' } },
    scenario: {
      stack: parts.stack ?? [engine('replica', 1, 2)],
      load: parts.load ?? { metadata: { cfg_id: 'c' }, standardized: { tool: 'inference-perf', tool_version: '0.3.0', source: 'random', stage: 2, input_seq_len: { distribution: 'fixed', value: 512 }, rate_qps: 4 }, native: {} },
    },
    results: parts.results ?? { request_performance: { aggregate: parts.aggregate ?? { requests: { total: 100, failures: 4 }, latency: { time_to_first_token: { units: 's', mean: 0.25, p50: 0.2, p99p9: 1.5 } } } } },
  }, null, 2);
}

function engine(role: string, replicas: number, tp: number, args: object = {}, extra: object = {}): object {
  return {
    metadata: { label: role, cfg_id: 'x' },
    standardized: { kind: 'inference_engine', tool: 'llm-d', tool_version: 'ghcr.io/llm-d/llm-d-cuda:v0.4.0', role, replicas, model: { name: 'acme/m' }, accelerator: { model: 'NVIDIA-H100-80GB-HBM3', count: tp, parallelism: { tp, dp: 1, pp: 1, ep: 1 } }, ...extra },
    native: { args },
  };
}

describe('llmd-benchmark-report detection', () => {
  it('claims YAML and JSON reports of every version, and a sorted YAML report whose version is past the head', () => {
    expect(grammar.detect({ path, head: "metrics:\n  latency:\n    time_to_first_token:\n      mean: 1\n      units: ms\nscenario:\n  load:\n    name: guidellm\nversion: '0.1'\n" }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: 'results:\n  request_performance:\n    aggregate: {}\nrun:\n  uid: a\nversion: 0.2.1\n' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: jsonReport() }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: 'results:\n  observability:\n    components:\n    - aggregate:\n        gpu_cache_usage:\n' }).score).toBeGreaterThan(0);
  });

  it('leaves other YAML and JSON with a version alone', () => {
    expect(grammar.detect({ path, head: "version: '0.2'\nservices:\n  web:\n    image: nginx\n" }).score).toBe(0);
    expect(grammar.detect({ path, head: 'engine: vllm\nmodel: m\nvariants:\n  nosd: {}\n' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"version": "0.2", "results": {"accuracy": 0.9}}' }).score).toBe(0);
    expect(grammar.detect({ path, head: 'results:\n  accuracy: 0.9\n' }).score).toBe(0);
  });
});

describe('llmd-benchmark-report mapping', () => {
  it('converts latencies to ms from the units each block gives', () => {
    const aggregate = {
      latency: {
        time_to_first_token: { units: 's', mean: 0.0368, p50: 0.0362, p0p1: 0.0273, p99p9: 0.057, stddev: 0.004 },
        time_per_output_token: { units: 's/token', mean: 0.0121 },
        inter_token_latency: { units: 'ms/token', mean: 11.5 },
        request_latency: { units: 'ms', mean: 2500 },
      },
    };
    const [f] = runFields(runGrammar(grammar, jsonReport({ aggregate })).records);
    expect(f).toMatchObject({ mean_ttft_ms: 36.8, median_ttft_ms: 36.2, 'p0.1_ttft_ms': 27.3, 'p99.9_ttft_ms': 57, std_ttft_ms: 4, mean_tpot_ms: 12.1, mean_itl_ms: 11.5, mean_e2el_ms: 2500 });
  });

  it('leaves out a block whose units cannot be its quantity, with a warning', () => {
    const aggregate = { latency: { time_to_first_token: { units: 's/token', mean: 0.09 } } };
    const { records, diagnostics } = runGrammar(grammar, jsonReport({ aggregate }));
    expect(runFields(records)[0]?.mean_ttft_ms).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['report/unknown-unit']);
  });

  it('counts completed as total less failures and incomplete', () => {
    const aggregate = { requests: { total: 500, failures: 2, incomplete: 8 } };
    const [f] = runFields(runGrammar(grammar, jsonReport({ aggregate })).records);
    expect(f).toMatchObject({ num_requests: 500, failed: 2, incomplete: 8, completed: 490 });
  });

  it('keeps only the mean of a throughput, under the canonical columns (both spellings of the request rate)', () => {
    const aggregate = { throughput: { output_token_rate: { units: 'tokens/s', mean: 2000, p90: 2500 }, requests_rate: { units: 'queries/s', mean: 7.9 } } };
    const [f] = runFields(runGrammar(grammar, jsonReport({ aggregate })).records);
    expect(f).toMatchObject({ output_throughput: 2000, request_throughput: 7.9 });
    expect(Object.keys(f ?? {}).filter((k) => k.includes('output_throughput'))).toEqual(['output_throughput']);
  });

  it('reads the engine, GPU and parallel sizes of the stack; llm-d serves with vLLM and its tag is no vLLM version', () => {
    const [f] = runFields(runGrammar(grammar, jsonReport()).records);
    expect(f).toMatchObject({ engine: 'vllm', gpu: 'H100', accelerator_model: 'NVIDIA-H100-80GB-HBM3', tp: 2, num_gpus: 2, model: 'acme/m', engine_image: 'ghcr.io/llm-d/llm-d-cuda:v0.4.0' });
    expect(f?.engine_version).toBeUndefined();
    expect(f?.replicas).toBeUndefined();
  });

  it('reads a P/D stack as the decode engine, with server counts, prefill differences and every GPU', () => {
    const stack = [engine('prefill', 2, 2), engine('decode', 1, 4), { metadata: { label: 'epp', cfg_id: 'y' }, standardized: { kind: 'generic', tool: 'llm-d-inference-scheduler', tool_version: '' }, native: {} }];
    const [f] = runFields(runGrammar(grammar, jsonReport({ stack })).records);
    expect(f).toMatchObject({ disaggregation: 'pd', num_prefill_servers: 2, num_decode_servers: 1, tp: 4, prefill_tp: 2, num_gpus: 8, router: 'llm-d-inference-scheduler' });
  });

  it('unfolds a shell-quoted speculative-config and reads valueless and no- flags as switches', () => {
    const args = { 'speculative-config': `'{"method": "eagle3", "model": "org/eagle3-head", "num_speculative_tokens": 4}'`, '--enforce-eager': null, 'no-enable-prefix-caching': null, 'tensor-parallel-size': '8', quantization: 'fp8' };
    const [f] = runFields(runGrammar(grammar, jsonReport({ stack: [engine('replica', 1, 2, args)] })).records);
    expect(f).toMatchObject({ spec_method: 'eagle3', draft_model: 'org/eagle3-head', num_spec_tokens: 4, enforce_eager: true, enable_prefix_caching: false, quantization: 'fp8', tp: 2 });
  });

  it('maps the load: client names, rate, unlimited concurrency left null, a measured length is no input_len', () => {
    const load = { metadata: {}, standardized: { tool: 'vllm-benchmark', tool_version: '0.11', source: 'sampled', input_seq_len: { distribution: 'other', value: 215.3 }, rate_qps: 12.5, concurrency: Infinity }, native: { args: { 'dataset-name': 'sharegpt', 'num-prompts': '1000' } } };
    const [f] = runFields(runGrammar(grammar, jsonReport({ load })).records);
    expect(f).toMatchObject({ client: 'vllm-bench-serve', load_tool: 'vllm-benchmark', request_rate: 12.5, input_len_distribution: 'other', dataset: 'sharegpt', num_prompts: 1000 });
    expect(f?.input_len).toBeUndefined();
    expect(f?.max_concurrency).toBeUndefined();
  });

  it('keeps the harness times as benchmark_* columns, not as the run window', () => {
    const [f] = runFields(runGrammar(grammar, jsonReport()).records);
    expect(f).toMatchObject({ benchmark_start_time: '2026-01-01T10:00:00', benchmark_end_time: '2026-01-01T10:05:00', benchmark_duration_s: 300, experiment_id: 'e1', report_uid: 'u1', report_version: '0.2' });
    expect(f?.start_time).toBeUndefined();
    expect(f?.end_time).toBeUndefined();
  });

  it('says a session-only report and counts no run from it', () => {
    const results = { session_performance: { sessions: { total: 10, succeeded: 10 } } };
    const { records, diagnostics } = runGrammar(grammar, jsonReport({ results }));
    expect(runFields(records)).toEqual([]);
    expect(diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info table/ignored-block']);
  });

  it('gives each YAML value its own line', () => {
    const text = ['results:', '  request_performance:', '    aggregate:', '      latency:', '        time_to_first_token:', '          mean: 120.5', '          units: ms', 'run:', '  uid: a', 'scenario:', '  load:', '    standardized:', '      rate_qps: 2.0', '      tool: guidellm', "version: '0.2'"].join('\n');
    const [run] = runGrammar(grammar, text).records;
    expect(run?.kind === 'run' ? run.lines : {}).toMatchObject({ mean_ttft_ms: 6, request_rate: 13, client: 14, report_version: 15 });
  });

  it('warns of a YAML report cut short and keeps what it holds as a partial run', () => {
    const text = ['results:', '  request_performance:', '    aggregate:', '      requests:', '        total: 40', '        failures: 1', '      latency:', '        time_to_first_token:', '          mean: 0.1'].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(records[0]?.kind === 'run' && records[0].complete).toBe(false);
    expect(runFields(records)[0]).toMatchObject({ completed: 39 });
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['report/missing-section', 'report/unknown-unit']);
  });

  it('warns of a key twice in one mapping (a lost line put one statistic into the one above it) and keeps the first', () => {
    // `request_latency:` gone: its max, mean and units join time_to_first_token's mapping
    const text = ['results:', '  request_performance:', '    aggregate:', '      latency:', '        time_to_first_token:', '          mean: 0.1', '          units: s', '          max: 7.4', '          mean: 5.6', '          units: s', "version: '0.2'"].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)[0]).toMatchObject({ mean_ttft_ms: 100, max_ttft_ms: 7400 });
    expect(diagnostics.filter((d) => d.code === 'parse/repeated-key').map((d) => [d.line, d.severity, d.message])).toEqual([
      [9, 'warning', 'key "mean" appears twice in one object (first on line 6): kept the first; a line above it may be missing'],
      [10, 'warning', 'key "units" appears twice in one object (first on line 7): kept the first; a line above it may be missing'],
    ]);
  });

  it('reads a v0.1 GuideLLM report: its load point from the rate list at its benchmark index, times from epoch seconds', () => {
    const text = [
      'metrics:', '  requests:', '    total: 10', '  throughput:', '    requests_per_sec: 1.5', '    total_tokens_per_sec: 900.0', '  time:', '    duration: 6.5', '    start: 1765201301.5', '    stop: 1765201308.0',
      'scenario:', '  load:', '    args:', '      data: prompt_tokens=256,output_tokens=64', '      rate:', '      - 2.0', '      - 5.0', '      rate_type: constant', '    metadata:', '      stage: 1', '    name: guidellm',
      '  model:', '    name: acme/m', "version: '0.1'",
    ].join('\n');
    const [f] = runFields(runGrammar(grammar, text).records);
    expect(f).toMatchObject({ request_rate: 5, strategy: 'constant', dataset: 'random', input_len: 256, output_len: 64, request_throughput: 1.5, total_token_throughput: 900, duration_s: 6.5, start_time: '2025-12-08T13:41:41.500', end_time: '2025-12-08T13:41:48', stage_id: 1, client: 'guidellm' });
  });
});

describe('llmd-benchmark-report helpers', () => {
  it('names engines, their versions and GPUs', () => {
    expect(engineOf('vllm', 'docker.io/vllm/vllm-openai:v0.11.0')).toBe('vllm');
    expect(engineOf('llm-d')).toBe('vllm');
    expect(engineOf('', 'lmsysorg/sglang:v0.5.2')).toBe('sglang');
    expect(engineOf('acme-server')).toBeUndefined();
    expect(engineVersionOf('docker.io/vllm/vllm-openai:v0.11.0')).toBe('0.11.0');
    expect(engineVersionOf('lmsysorg/sglang:v0.5.2-cu126')).toBe('0.5.2');
    expect(engineVersionOf('ghcr.io/llm-d/llm-d-cuda:v0.4.0')).toBeUndefined();
    expect(engineVersionOf('localhost:5000/vllm')).toBeUndefined();
    expect(gpuOf('NVIDIA-A100-SXM4-80GB')).toBe('A100');
    expect(gpuOf('AMD-Instinct-MI300X')).toBe('MI300X');
    expect(gpuOf('Intel-Gaudi')).toBe('Intel-Gaudi');
  });

  it('reads ISO 8601 durations', () => {
    expect(isoDurationSeconds('PT49.97S')).toBe(49.97);
    expect(isoDurationSeconds('PT1H2M3.5S')).toBe(3723.5);
    expect(isoDurationSeconds('P1DT2H')).toBe(93600);
    expect(isoDurationSeconds('PT')).toBeUndefined();
    expect(isoDurationSeconds('49.97')).toBeUndefined();
  });

  it('says a schema version that is none (other text run into the last line), and still reads the report by its sections', () => {
    const text = readFileSync(join(FIXTURES, 'llmd-benchmark-report/layout-v021-request-size/input.yaml'), 'utf8').replace(/\n$/, '');
    const clean = runGrammar(grammar, text);
    const cut = runGrammar(grammar, `${text}\n  9/20 done`);
    expect(clean.diagnostics.map((d) => d.code)).not.toContain('report/unknown-version');
    expect(cut.diagnostics.map((d) => d.code)).toContain('report/unknown-version');
    const size = runFields(clean.records)[0]?.mean_request_size_bytes;
    expect(typeof size).toBe('number');
    expect(runFields(cut.records)[0]).toMatchObject({ mean_request_size_bytes: size });
  });

  it('leaves out the lines another process wrote into a report (a progress bar, a traceback), counted, each other line keeping its number', () => {
    const text = readFileSync(join(FIXTURES, 'llmd-benchmark-report/layout-v021-request-size/input.yaml'), 'utf8').replace(/\n$/, '');
    const lines = text.split('\n');
    const clean = runGrammar(grammar, text);
    // a traceback's first line at the margin would be a key, the indented lines below it its value
    const at = lines.findIndex((l, i) => i > 10 && /^\s{4,}\S/.test(l));
    const noisy = runGrammar(grammar, [...lines.slice(0, at), 'Traceback (most recent call last):', ...lines.slice(at), ' 45%|     | 9/20 [00:04<00:05,  2.10it/s]'].join('\n'));
    expect(runFields(noisy.records)).toEqual(runFields(clean.records));
    expect(noisy.diagnostics.filter((d) => d.code !== 'normalize/duplicate-run').map((d) => `${d.line} ${d.code}`)).toEqual([`${at + 1} block/interleaved-line`]);
    expect(noisy.diagnostics[0]?.message).toMatch(/^2 interleaved lines/);
  });
});
