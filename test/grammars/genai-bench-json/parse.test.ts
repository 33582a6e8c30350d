import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-bench-json/index.js';
import { engineOf } from '../../../grammars/genai-bench-json/metadata.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { BenchRecord } from '../../../src/core/records.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

type Obj = Record<string, unknown>;

/** A run JSON as AggregatedMetricsCollector.save writes it (indent=4); latencies given in seconds. */
function runJson(agg: Obj = {}, opts: { unit?: 's' | 'ms' | null; individual?: unknown } = {}): string {
  const unit = opts.unit === undefined ? 's' : opts.unit;
  const k = unit === 'ms' ? 1000 : 1;
  const lat = (mean: number): Obj => ({ min: mean / 2 * k, max: mean * 2 * k, mean: mean * k, stddev: mean / 10 * k, sum: mean * 10 * k, p25: mean * 0.8 * k, p50: mean * k, p75: mean * 1.2 * k, p90: mean * 1.5 * k, p95: mean * 1.7 * k, p99: mean * 1.9 * k });
  const tokens = (mean: number): Obj => ({ min: mean, max: mean, mean, stddev: 0, sum: mean * 10, p25: mean, p50: mean, p75: mean, p90: mean, p95: mean, p99: mean });
  const doc: Obj = {
    aggregated_metrics: {
      scenario: 'D(100,100)', num_concurrency: 4, batch_size: 1, iteration_type: 'num_concurrency', run_duration: 10,
      mean_output_throughput_tokens_per_s: 100, mean_input_throughput_tokens_per_s: 100, mean_total_tokens_throughput_tokens_per_s: 200,
      mean_total_chars_per_hour: 2.9e6, requests_per_second: 1, error_codes_frequency: {}, error_rate: 0, num_error_requests: 0,
      num_completed_requests: 10, num_requests: 10, total_arrivals: null, arrival_requests_per_second: null,
      stats: {
        ttft: lat(0.05), tpot: lat(0.011), e2e_latency: lat(1.14), output_latency: lat(1.09), output_inference_speed: tokens(90),
        num_input_tokens: tokens(100), num_output_tokens: tokens(100), total_tokens: tokens(200), input_throughput: tokens(2000), output_throughput: tokens(90),
      },
      ...agg,
    },
  };
  if (opts.individual !== undefined) doc.individual_request_metrics = opts.individual;
  if (unit !== null) doc._time_unit = unit;
  return JSON.stringify(doc, null, 4);
}

function parseAt(path: string, text: string): { records: BenchRecord[]; diagnostics: string[] } {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(path), lines: text.split('\n') }, sink);
  return { records, diagnostics: sink.list().map((d) => `${d.severity} ${d.code} ${d.message}`) };
}

const one = (text: string): Obj => runFields(runGrammar(grammar, text).records)[0] ?? {};

describe('genai-bench-json runs', () => {
  it('gives the same ms columns whether the file was saved in seconds or in ms', () => {
    const s = one(runJson({}, { unit: 's' }));
    const ms = one(runJson({}, { unit: 'ms' }));
    const legacy = one(runJson({}, { unit: null }));
    expect(s.mean_ttft_ms).toBe(50);
    expect(s.p99_e2el_ms).toBe(2166);
    expect(s.median_tpot_ms).toBe(11);
    for (const col of ['mean_ttft_ms', 'p99_e2el_ms', 'median_tpot_ms', 'std_output_latency_ms']) {
      // (the ms file's test values carry their own float noise)
      expect(ms[col] as number).toBeCloseTo(s[col] as number, 9);
      expect(legacy[col]).toBe(s[col]);
    }
    // not latencies: never scaled
    expect(ms.mean_output_throughput_per_user).toBe(90);
    expect(s.mean_input_len).toBe(100);
  });

  it('reads no latency of a file cut before its _time_unit (a run in ms is not read as seconds)', () => {
    const text = runJson({}, { unit: 'ms', individual: [] });
    const cut = text.slice(0, text.indexOf('"individual_request_metrics"'));
    const { records, diagnostics } = parseAt('run.json', cut);
    const fields = runFields(records)[0] ?? {};
    expect(fields.mean_ttft_ms).toBeUndefined();
    expect(fields.p99_e2el_ms).toBeUndefined();
    // what carries no unit is read
    expect(fields.mean_output_throughput_per_user).toBe(90);
    expect(diagnostics.filter((d) => d.includes('json/cut'))).toEqual([
      expect.stringContaining('warning json/cut '),
      'info json/cut-unit the latency statistics not read: their unit ("_time_unit", written after them) was cut off',
    ]);
    // whole, the same file's latencies are read in its unit
    expect(one(text).mean_ttft_ms).toBe(50);
  });

  it('reads the load point: concurrency, open-loop QPS, batch size', () => {
    expect(one(runJson())).toMatchObject({ max_concurrency: 4 });
    expect(one(runJson()).request_rate).toBeUndefined();
    const qps = one(runJson({ num_concurrency: 2.5, total_arrivals: 25, arrival_requests_per_second: 2.45 }));
    expect(qps.request_rate).toBe(2.5);
    expect(qps.max_concurrency).toBeUndefined();
    const batch = one(runJson({ iteration_type: 'batch_size', batch_size: 16, scenario: 'E(512)' }));
    expect(batch).toMatchObject({ batch_size: 16, document_len: 512 });
    expect(batch.max_concurrency).toBeUndefined();
  });

  it('drops the zeros an embedding run writes for every output metric', () => {
    const zeros = { min: 0, max: 0, mean: 0, stddev: 0, sum: 0, p25: 0, p50: 0, p75: 0, p90: 0, p95: 0, p99: 0 };
    const text = runJson({ iteration_type: 'batch_size', batch_size: 8, scenario: 'E(1024)', mean_output_throughput_tokens_per_s: 0 });
    const doc = JSON.parse(text);
    for (const m of ['tpot', 'output_latency', 'output_inference_speed', 'num_output_tokens', 'output_throughput']) doc.aggregated_metrics.stats[m] = zeros;
    const f = one(JSON.stringify(doc, null, 4));
    for (const col of ['mean_tpot_ms', 'mean_output_latency_ms', 'mean_output_len', 'total_output_tokens', 'output_throughput', 'mean_output_throughput_per_user']) expect(f[col]).toBeUndefined();
    expect(f.mean_ttft_ms).toBe(50);
  });

  it('reads the traffic scenario into lengths and keeps the string', () => {
    expect(one(runJson({ scenario: 'N(480,240)/(300,150)' }))).toMatchObject({ scenario: 'N(480,240)/(300,150)', input_len: 480, output_len: 300, input_len_std_dev: 240, output_len_std_dev: 150, input_len_distribution: 'normal' });
    expect(one(runJson({ scenario: 'P(2000,500)/200' }))).toMatchObject({ prefix_len: 2000, input_len: 500, output_len: 200 });
    const u = one(runJson({ scenario: 'U(100,200)/(200,300)' }));
    expect(u).toMatchObject({ input_len_min: 100, input_len_max: 200, output_len_min: 200, output_len_max: 300 });
    expect(u.input_len).toBeUndefined();
    const ds = one(runJson({ scenario: 'dataset' }));
    expect(ds.scenario).toBe('dataset');
    expect(ds.input_len).toBeUndefined();
  });

  it('never reads individual_request_metrics: a skimmed file (null there) gives the same run and info', () => {
    const requests = Array.from({ length: 5 }, () => ({ ttft: 9, tpot: 9, e2e_latency: 9, error_code: null }));
    const full = parseAt('r.json', runJson({}, { individual: requests }));
    const skimmed = parseAt('r.json', runJson({}, { individual: null }));
    expect(skimmed.records).toEqual(full.records);
    expect(skimmed.diagnostics).toEqual(full.diagnostics);
    expect(full.diagnostics.filter((d) => d.includes('table/ignored-block'))).toHaveLength(1);
    expect(runFields(full.records)).toHaveLength(1);
  });

  it('detects from the head alone: aggregated_metrics comes first, however long the request array', () => {
    const head = runJson({}, { individual: [] }).slice(0, 400);
    expect(grammar.detect({ path: asRelPath('x.json'), head }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path: asRelPath('x.json'), head: '{"aggregated_metrics": {"foo": 1}}' }).score).toBe(0);
  });

  it("claims a debug_for_run dump but makes no run of it", () => {
    const { records, diagnostics } = parseAt('exp/debug_for_run_D_100_100__4.json', runJson());
    expect(records).toEqual([]);
    expect(diagnostics).toEqual([expect.stringMatching(/^info table\/ignored-block genai-bench debug dump/)]);
  });
});

describe('genai-bench-json experiment_metadata.json', () => {
  const meta = (extra: Obj = {}): string =>
    JSON.stringify({ cmd: 'genai-bench benchmark', benchmark_version: '0.0.2', api_backend: 'openai', model: 'org/m', task: 'text-to-text', num_concurrency: [1], traffic_scenario: ['D(100,100)'], server_engine: 'TGI', server_version: 'v3.0.1', server_gpu_type: 'H200', server_gpu_count: '8', max_time_per_run_s: 300, max_requests_per_run: 100, dataset_path: 'None', ...extra }, null, 4);
  const config = (text: string): BenchRecord | undefined => runGrammar(grammar, text).records[0];

  it('is one bench-config record for genai-bench runs, not a run', () => {
    const r = config(meta());
    expect(r?.kind).toBe('config');
    if (r?.kind !== 'config') return;
    expect(r.origin).toBe('bench-config');
    expect(r.fields).toMatchObject({ client: 'genai-bench', engine: 'tgi', engine_version: '3.0.1', gpu: 'H200', num_gpus: 8, model: 'org/m', task: 'text-to-text' });
    // `str(None)` is no dataset
    expect(r.fields.dataset_path).toBeUndefined();
  });

  it('maps every --server-engine choice, and falls back on an engine-named API backend', () => {
    expect(['vLLM', 'SGLang', 'TGI', 'cohere-TensorRT', 'cohere-vLLM'].map(engineOf)).toEqual(['vllm', 'sglang', 'tgi', 'trtllm', 'vllm']);
    const r = config(meta({ server_engine: null, api_backend: 'sglang' }));
    expect(r?.kind === 'config' && r.fields.engine).toBe('sglang');
  });
});
