import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-json/index.js';
import { grammar as vllmJson } from '../../../grammars/vllm-bench-result-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { BenchRecord } from '../../../src/core/records.js';

/** The grammar on a text read from `file` (its path says what some AIPerf files are). */
function runAt(file: string, text: string) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(file), lines: text.split('\n') }, sink);
  return { records, diagnostics: sink.list().map((d) => `${d.code} ${d.message}`) };
}

const path = asRelPath('x.json');

describe('genai-perf-json', () => {
  it('claims statistics objects, not per-request records, and vLLM results do not claim it', () => {
    const exportHead = '{\n  "time_to_first_token": {"unit": "ms", "avg": 1.5},\n  "input_config": {"endpoint_type": "chat"}';
    expect(grammar.detect({ path, head: exportHead }).score).toBeGreaterThan(0);
    expect(vllmJson.detect({ path, head: exportHead }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"metadata": {}, "metrics": {"time_to_first_token": {"value": 20, "unit": "ms"}}}' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"model_id": "m", "mean_ttft_ms": 3}' }).score).toBe(0);
  });

  it('reads GenAI-Perf 2025 nested input_config and converts units', () => {
    const text = JSON.stringify({
      request_latency: { unit: 'sec', avg: 1.25, p99: 2 },
      request_goodput: { unit: 'requests/sec', avg: 0.5 },
      input_config: { model_names: ['acme/m'], perf_analyzer: { stimulus: { concurrency: 8 } }, input: { synthetic_tokens: { mean: 300 } } },
    });
    expect(runFields(runGrammar(grammar, text).records)).toEqual([
      { mean_e2el_ms: 1250, p99_e2el_ms: 2000, request_goodput: 0.5, model: 'acme/m', max_concurrency: 8, input_len: 300, client: 'genai-perf' },
    ]);
  });

  it('takes the client from the command and reports unknown metrics once', () => {
    const text = JSON.stringify({
      request_count: { unit: 'requests', avg: 3 },
      good_request_count: { unit: 'requests', avg: 2 },
      input_config: { cli_command: 'aiperf profile --model q --request-rate 4' },
    });
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([{ completed: 3, good_request_count: 2, model: 'q', request_rate: 4, client: 'aiperf' }]);
    expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual(['table/unknown-metric 1 metrics kept under their own names: good_request_count (requests)']);
  });

  it('says so when an object has no metrics', () => {
    const { records, diagnostics } = runGrammar(grammar, '{"input_config": {"model": "x"}}');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['json/not-a-result']);
  });

  it('reads AIPerf 0.1 exports, whose metrics sit under records keyed by tag', () => {
    const text = JSON.stringify({
      records: {
        ttft: { tag: 'ttft', unit: 'ms', header: 'Time to First Token', avg: 20, p99: 40, count: 9 },
        benchmark_duration: { tag: 'benchmark_duration', unit: 'sec', header: 'Benchmark Duration', avg: 3.5 },
      },
      was_cancelled: false,
    });
    expect(runFields(runGrammar(grammar, text).records)).toEqual([{ mean_ttft_ms: 20, p99_ttft_ms: 40, duration_s: 3.5, client: 'aiperf' }]);
  });

  it('takes the output total from total_osl (reasoning included), goodput as request_goodput, and keeps adjusted percentiles apart', () => {
    const text = JSON.stringify({
      aiperf_version: '0.6.0',
      goodput: { unit: 'requests/sec', avg: 1.5 },
      request_latency: { unit: 'ms', p99: 100, adj_p99: 900 },
      total_output_tokens: { unit: 'tokens', avg: 10 },
      total_osl: { unit: 'tokens', avg: 60 },
    });
    expect(runFields(runGrammar(grammar, text).records)).toEqual([
      { request_goodput: 1.5, p99_e2el_ms: 100, adj_p99_e2el_ms: 900, total_output_tokens_excl_reasoning: 10, total_output_tokens: 60, client_version: '0.6.0', client: 'aiperf' },
    ]);
  });

  it('claims the multi-run aggregate and reads no run from it', () => {
    const text = JSON.stringify({
      aiperf_version: '0.6.0',
      metadata: { aggregation_type: 'confidence', num_profile_runs: 2 },
      metrics: { request_throughput_avg: { mean: 2, std: 0.1, ci_low: 1.5, ci_high: 2.5, unit: 'requests/sec' } },
    });
    expect(grammar.detect({ path, head: text }).score).toBeGreaterThan(0);
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });

  describe('files AIPerf writes beside its export', () => {
    const exportText = JSON.stringify({
      aiperf_version: '0.3.0',
      request_throughput: { unit: 'requests/sec', avg: 3 },
      time_to_first_token: { unit: 'ms', avg: 40, p99: 90 },
      request_count: { unit: 'requests', avg: 90 },
    });

    it('reads the artifact folder\'s own export as a run', () => {
      expect(runAt('art/profile_export_aiperf.json', exportText).records).toHaveLength(1);
      expect(runAt('art/profile_runs/run_0002/profile_export_aiperf.json', exportText).records).toHaveLength(1);
    });

    it('reads no run from a time slice under timeslices/ (one file per slice of the run above)', () => {
      const { records, diagnostics } = runAt('art/timeslices/profile_export_aiperf_3.json', exportText);
      expect(records).toEqual([]);
      expect(diagnostics).toEqual(['table/ignored-block AIPerf time slice 3 (timeslices/ holds one export per slice of the run in the folder above) ignored']);
    });

    it('reads no run from a per-phase export under phases/<phase>/, warm-up or profiling', () => {
      for (const phase of ['warmup', 'profiling']) {
        const { records, diagnostics } = runAt(`art/phases/${phase}/profile_export_aiperf.json`, exportText);
        expect(records).toEqual([]);
        expect(diagnostics).toEqual([`table/ignored-block AIPerf per-phase export of phase "${phase}" (the run is the artifact folder's own profile_export_aiperf export) ignored`]);
      }
    });

    it('reads the energy export as more results of the AIPerf run beside it (J, W; mJ per token in J)', () => {
      const energy = { source: { total_gpu_energy_j: 2500, average_gpu_power_w: 400, gpu_count: 1, energy_source: 'dcgm_counter' }, metrics: { energy_per_output_token_mj: 410, energy_per_request_j: 12.5, output_tps_per_watt: 2.4 } };
      const text = JSON.stringify(energy, null, 2);
      expect(grammar.detect({ path, head: text }).score).toBeGreaterThan(0);
      const { records, diagnostics } = runAt('profile_export_aiperf_energy_efficiency.json', text);
      expect(diagnostics).toEqual([]);
      expect(records).toMatchObject([{ kind: 'config', origin: 'bench-metrics', fields: { client: 'aiperf', gpu_energy_j: 2500, gpu_power_w: 400, gpu_count: 1, energy_source: 'dcgm_counter', energy_per_output_token_j: 0.41, energy_per_request_j: 12.5, output_tokens_per_joule: 2.4 } }]);
    });

    it('claims the time-slice, steady-state, server-metrics and sweep exports and reads no run from them', () => {
      const companions = {
        timeslices: { timeslices: [{ start_ns: 1, end_ns: 2, time_to_first_token: { unit: 'ms', avg: 40 } }], input_config: {} },
        steadyState: { window_metadata: { steady_state_requests: 80, total_requests: 100 }, metrics: { time_to_first_token: { unit: 'ms', avg: 40, p99: 80 } } },
        serverMetrics: { aiperf_version: '0.7.0', benchmark_id: 'b', summary: { endpoints_configured: ['http://h/metrics'] }, metrics: { 'vllm:num_requests_running': { type: 'gauge', series: [{ stats: { avg: 3 } }] } } },
        sweep: { aggregation_type: 'sweep', num_profile_runs: 4, per_combination_metrics: [{ parameters: { concurrency: 8 }, metrics: { request_throughput_avg: { mean: 3, std: 0.1 } } }] },
      };
      for (const [name, obj] of Object.entries(companions)) {
        const text = JSON.stringify(obj, null, 2);
        expect(grammar.detect({ path, head: text }).score, name).toBeGreaterThan(0);
        const { records, diagnostics } = runAt(`${name}.json`, text);
        expect(records, name).toEqual([]);
        expect(diagnostics, name).toHaveLength(1);
        expect(diagnostics[0], name).toMatch(/^table\/ignored-block AIPerf /);
      }
    });

    it('leaves per-request records, GPU telemetry and server-metrics scrapes to no grammar', () => {
      const lines = [
        '{"metadata":{"session_num":0,"benchmark_phase":"profiling","request_start_ns":1},"metrics":{"time_to_first_token":{"value":45.1,"unit":"ms"},"request_latency":{"value":1200.2,"unit":"ms"}},"error":null}',
        '{"timestamp_ns":1,"dcgm_url":"http://h:9401/metrics","gpu_index":0,"telemetry_data":{"gpu_power_usage":400.5}}',
        '{"timestamp_ns":1,"endpoint_latency_ns":1200,"endpoint_url":"http://h/metrics","metrics":{"vllm:num_requests_running":[{"value":4.0}]}}',
      ];
      for (const head of lines) expect(grammar.detect({ path, head }).score, head).toBe(0);
    });
  });
  describe('server metrics export with speculative-decoding counters', () => {
    const counter = (series: Array<[Record<string, string>, number]>) => ({ type: 'counter', series: series.map(([labels, total]) => ({ endpoint_url: 'http://h:8000/metrics', labels, stats: { total, rate: total / 100 } })) });
    const fieldsOf = (records: readonly BenchRecord[]) => records.map((r) => (r.kind === 'config' ? r.fields : r.kind));
    const exportOf = (metrics: Record<string, unknown>) => JSON.stringify({ aiperf_version: '0.4.0', benchmark_id: 'b', summary: { endpoints_configured: ['http://h:8000/metrics'] }, metrics }, null, 2);

    it('joins the counters increase over the run as the acceptance of the AIPerf run beside it', () => {
      const e0 = { engine: '0', model_name: 'm' };
      const e1 = { engine: '1', model_name: 'm' };
      const text = exportOf({
        'vllm:num_requests_running': { type: 'gauge', series: [{ labels: e0, stats: { avg: 3, max: 8 } }] },
        'vllm:spec_decode_num_accepted_tokens': counter([[e0, 700], [e1, 500]]),
        'vllm:spec_decode_num_accepted_tokens_per_pos': counter([[{ ...e0, position: '0' }, 400], [{ ...e0, position: '1' }, 300], [{ ...e1, position: '0' }, 300], [{ ...e1, position: '1' }, 200]]),
        'vllm:spec_decode_num_draft_tokens': counter([[e0, 1000], [e1, 1000]]),
        'vllm:spec_decode_num_drafts': counter([[e0, 500], [e1, 500]]),
      });
      const { records, diagnostics } = runAt('art/server_metrics_export.json', text);
      expect(diagnostics).toEqual([]);
      expect(records).toHaveLength(1);
      const [record] = records;
      if (record?.kind !== 'config') throw new Error('no config record');
      expect(record.origin).toBe('bench-metrics');
      // summed over both engines: 1200 accepted of 2000 drafted in 1000 drafts; 700 and 500 at positions 0 and 1
      expect(record.fields).toEqual({ client: 'aiperf', spec_num_drafts: 1000, spec_draft_tokens: 2000, spec_accepted_tokens: 1200, spec_acceptance_rate: 0.6, spec_acceptance_length: 2.2, spec_per_position_acceptance: [0.7, 0.5] });
      const lineOf = (key: string) => text.split('\n').findIndex((l) => l.includes(`"${key}": {`)) + 1;
      expect(record.lines.spec_acceptance_rate).toBe(lineOf('vllm:spec_decode_num_accepted_tokens'));
      expect(record.lines.spec_num_drafts).toBe(lineOf('vllm:spec_decode_num_drafts'));
      expect(record.lines.spec_per_position_acceptance).toBe(lineOf('vllm:spec_decode_num_accepted_tokens_per_pos'));
    });

    it('takes the _total sample names, and gives no rate over no drafts', () => {
      const text = exportOf({ 'vllm:spec_decode_num_drafts_total': counter([[{}, 0]]), 'vllm:spec_decode_num_draft_tokens_total': counter([[{}, 0]]), 'vllm:spec_decode_num_accepted_tokens_total': counter([[{}, 0]]) });
      const { records } = runAt('server_metrics_export.json', text);
      expect(fieldsOf(records)).toEqual([{ client: 'aiperf', spec_num_drafts: 0, spec_draft_tokens: 0, spec_accepted_tokens: 0 }]);
    });

    it('leaves out per-position rates with a position missing, and counts no gauge', () => {
      const text = exportOf({
        'vllm:spec_decode_num_accepted_tokens': counter([[{}, 30]]),
        'vllm:spec_decode_num_accepted_tokens_per_pos': counter([[{ position: '0' }, 20], [{ position: '2' }, 10]]),
        'vllm:spec_decode_num_drafts': counter([[{}, 40]]),
      });
      const { records } = runAt('server_metrics_export.json', text);
      expect(fieldsOf(records)).toEqual([{ client: 'aiperf', spec_num_drafts: 40, spec_accepted_tokens: 30, spec_acceptance_length: 1.75 }]);
      // a gauge of a counter's name is a level, no count of the run: then the export joins nothing and stays an ignored block
      const gauge = runAt('server_metrics_export.json', exportOf({ 'vllm:spec_decode_num_drafts': { type: 'gauge', series: [{ stats: { avg: 40, total: 40 } }] } }));
      expect(gauge.records).toEqual([]);
      expect(gauge.diagnostics).toEqual(['table/ignored-block AIPerf server metrics export (1 Prometheus metric of the serving endpoints during the run) ignored']);
    });
  });
});
