import { describe, expect, it } from 'vitest';
import { statName } from '../../../grammars/inference-perf-json/fields.js';
import { grammar } from '../../../grammars/inference-perf-json/index.js';
import { grammar as genaiPerfJson } from '../../../grammars/genai-perf-json/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields } from '../../helpers/grammar-run.js';

/** Parses a report written as inference-perf writes it (`json.dumps(…, indent=2)`) under a file path. */
function parse(report: object, path = 'out/stage_0_lifecycle_metrics.json') {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(path), lines: JSON.stringify(report, null, 2).split('\n') }, sink);
  return { fields: runFields(records), diagnostics: sink.list().map((d) => `${d.code} ${d.message}`) };
}

const latency = (mean: number) => ({ mean, min: mean / 2, max: mean * 2, 'p0.1': mean / 2, median: mean, 'p99.9': mean * 2 });

function stage(load: object, extra: object = {}) {
  return {
    benchmark_time_seconds: 12.5,
    load_summary: { count: 100, schedule_delay: latency(0.0004), send_duration: 9.9, ...load },
    successes: {
      count: 98,
      latency: { request_latency: latency(2.5), time_to_first_token: latency(0.08), time_per_output_token: latency(0.02), inter_token_latency: latency(0.019), normalized_time_per_output_token: latency(0.021) },
      throughput: { input_tokens_per_sec: 4000, output_tokens_per_sec: 1000, total_tokens_per_sec: 5000, requests_per_sec: 7.84, images_per_sec: 0.0, videos_per_sec: 0.0, audios_per_sec: 0.0 },
      prompt_tokens: { total: 50176.0, cached: 0.0, uncached: 50176.0, mean: 512, median: 510 },
      output_len: { mean: 130, median: 129 },
      output_tokens: { total: 12544.0, mean: 128, median: 127 },
    },
    failures: { count: 2, request_latency: latency(1.5), by_label: {} },
    ...extra,
  };
}

describe('inference-perf-json', () => {
  it('names summarize() statistics: p50 is the median, p0.1 and p99.9 keep their decimals', () => {
    expect(['mean', 'min', 'max', 'median', 'p50', 'p0.1', 'p1', 'p99.9', 'total', 'cached', 'count'].map(statName)).toEqual(['mean', 'min', 'max', 'median', 'median', 'p0.1', 'p1', 'p99.9', null, null, null]);
  });

  it('detects lifecycle and Prometheus reports, not other JSON with a load_summary', () => {
    const path = asRelPath('stage_0_lifecycle_metrics.json');
    expect(grammar.detect({ path, head: '{\n  "benchmark_time_seconds": 3.2,\n  "load_summary": {\n    "count": 10,' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '{\n  "load_summary": {},\n  "successes": {\n    "count": 58.0,' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '{"load_summary": {"total": 3}, "name": "x"}' }).score).toBe(0);
    expect(grammar.detect({ path, head: 'load_summary: {successes: 1}' }).score).toBe(0);
  });

  it('converts latencies from seconds to ms and keeps each statistic', () => {
    const { fields } = parse(stage({ requested_rate: 8, achieved_rate: 10.1 }));
    const f = fields[0] ?? {};
    expect([f.mean_e2el_ms, f.median_ttft_ms, f['p99.9_tpot_ms'], f.min_itl_ms, f['p0.1_ntpot_ms']]).toEqual([2500, 80, 40, 9.5, 10.5]);
    expect([f.mean_failed_e2el_ms, f.mean_schedule_delay_ms]).toEqual([1500, 0.4]);
  });

  it('reads a rate stage as request_rate, a concurrent stage as max_concurrency with its request count', () => {
    const rate = parse(stage({ requested_rate: 8, achieved_rate: 10.1 })).fields[0] ?? {};
    expect([rate.request_rate, rate.max_concurrency, rate.num_prompts]).toEqual([8, undefined, undefined]);
    // inference-perf sets a concurrent stage's rate to its num_requests: not a QPS
    const concurrent = parse(stage({ requested_rate: 100, achieved_rate: 3.2, concurrency: 16 })).fields[0] ?? {};
    expect([concurrent.request_rate, concurrent.max_concurrency, concurrent.num_prompts]).toEqual([undefined, 16, 100]);
  });

  it('maps counts, throughputs and token totals, and the stage index of the file name', () => {
    const f = parse(stage({ requested_rate: 8, achieved_rate: 10.1 }), 'results/run-1/stage_3_lifecycle_metrics.json').fields[0] ?? {};
    expect(f).toMatchObject({
      completed: 98, failed: 2, num_requests: 100, duration_s: 12.5, send_duration_s: 9.9, achieved_request_rate: 10.1,
      request_throughput: 7.84, input_throughput: 4000, output_throughput: 1000, total_token_throughput: 5000,
      total_input_tokens: 50176, total_output_tokens: 12544, mean_input_len: 512, mean_output_len: 128, median_output_len: 127,
      stage_id: 3, client: 'inference-perf',
    });
    // `report_file_prefix` puts any prefix before the names
    expect(parse(stage({ requested_rate: 8 }), 'gs/llama-8b-run2-stage_12_lifecycle_metrics.json').fields[0]?.stage_id).toBe(12);
    expect(parse(stage({ requested_rate: 8 }), 'out/report.json').fields[0]?.stage_id).toBeUndefined();
    // multimodal rates written as 0.0 for a text run, and a cached count of 0 the server may never have sent
    expect(Object.keys(f).filter((k) => /image|video|audio|cached/.test(k))).toEqual([]);
  });

  it('reads the first report shape: schedule_accuracy, p50, prompt_len / output_len', () => {
    const old = {
      load_summary: { count: 4, schedule_accuracy: { mean: 0.001, p50: 0.002 }, send_duration: 1.5, requested_rate: 2, achieved_rate: 2.6 },
      successes: { count: 4, latency: { request_latency: { mean: 1.25, p50: 1.5, p90: 2 } }, throughput: { requests_per_sec: 1.1 }, prompt_len: { mean: 100, p50: 90 }, output_len: { mean: 50 } },
      failures: { count: 0, request_latency: null, prompt_len: null },
    };
    const f = parse(old).fields[0] ?? {};
    expect(f).toMatchObject({ mean_schedule_delay_ms: 1, median_schedule_delay_ms: 2, mean_e2el_ms: 1250, median_e2el_ms: 1500, p90_e2el_ms: 2000, mean_input_len: 100, median_input_len: 90, mean_output_len: 50, request_rate: 2, failed: 0 });
    expect(f.duration_s).toBeUndefined();
  });

  it('reads goodput (goodput_metrics, earlier slo_metrics) and retries', () => {
    const goodput = { goodput_percentage: 75, request_goodput: 5.5, token_goodput: 3500, good_requests: 73, total_requests: 98 };
    const retries = { requests_retried: 4, attempts: 6, recovered: 3, failed_after_retry: 1, wasted_sec_total: 2.5 };
    for (const key of ['goodput_metrics', 'slo_metrics']) {
      const report = stage({ requested_rate: 8, achieved_rate: 10.1 }, { retries });
      (report.successes as Record<string, unknown>)[key] = goodput;
      expect(parse(report).fields[0]).toMatchObject({ request_goodput: 5.5, token_goodput: 3500, good_requests: 73, retried_requests: 4, retry_attempts: 6, retries_recovered: 3 });
    }
  });

  it('reads the run summary, a per-adapter slice and a Prometheus report as no run, with one info each', () => {
    const summary = stage({});
    expect(parse(summary, 'out/summary_lifecycle_metrics.json')).toEqual({
      fields: [],
      diagnostics: ['table/ignored-block inference-perf run summary of 100 requests over every stage (each stage_N_lifecycle_metrics.json is read as a run) ignored'],
    });
    expect(parse(summary, 'out/adapter_sql-lora_lifecycle_metrics.json').diagnostics[0]).toContain("LoRA adapter sql-lora's requests over every stage");
    // a per-adapter slice of a stage carries the stage's rate: known by its name
    const slice = parse(stage({ requested_rate: 8, achieved_rate: 4 }), 'out/adapter_sql-lora_stage_2_lifecycle_metrics.json');
    expect(slice.fields).toEqual([]);
    expect(slice.diagnostics[0]).toContain("LoRA adapter sql-lora's requests of stage 2");
    const prometheus = { benchmark_time_seconds: 0.0, load_summary: {}, successes: { count: 58.0, rate: 9.6, request_latency: { mean: 3.7, median: 3.6 } }, failures: {} };
    const p = parse(prometheus, 'out/run7-stage_1_prometheus_metrics.json');
    expect(p.fields).toEqual([]);
    expect(p.diagnostics).toEqual(["table/ignored-block inference-perf Prometheus metrics report (the model server's own metrics over stage 1, not a client measurement) ignored"]);
  });

  it('says what JSON with a load_summary but no successes is', () => {
    expect(parse({ load_summary: { count: 1 } }).diagnostics).toEqual(['json/not-a-result JSON object is not a benchmark result (keys: load_summary)']);
  });

  it('outscores genai-perf-json on a stage report (which it claims too, for its request_latency statistics)', () => {
    const head = JSON.stringify(stage({ requested_rate: 8, achieved_rate: 10.1 }), null, 2);
    const path = asRelPath('stage_0_lifecycle_metrics.json');
    expect(grammar.detect({ path, head }).score).toBeGreaterThan(genaiPerfJson.detect({ path, head }).score);
  });
});
