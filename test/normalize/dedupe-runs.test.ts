import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { dedupeRuns, withoutCopies } from '../../src/normalize/dedupe-runs.js';

const block = { source_file: 'v/bench-c4.log', source_line: 9, source_format: 'vllm-bench-serve', config_sources: '["a"]', label: 'nosd', completed: 40, failed: 0, total_input_tokens: 4096, total_output_tokens: 1024, duration_s: 12.35, output_throughput: 82.92, std_ttft_ms: null };
const json = { source_file: 'v/bench-c4.json', source_line: 1, source_format: 'vllm-bench-result-json', config_sources: '["b"]', label: null, completed: 40, failed: 0, total_input_tokens: 4096, total_output_tokens: 1024, duration_s: 12.3481, output_throughput: 82.9245, std_ttft_ms: 3.1 };

describe('dedupeRuns', () => {
  it('keeps one row for the stdout block and the result JSON of one run, JSON values first', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([block, json], sink);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source_file: 'v/bench-c4.json', output_throughput: 82.9245, std_ttft_ms: 3.1, label: 'nosd' });
    expect(JSON.parse(String(rows[0]?.config_sources))).toEqual(['b', 'duplicate:v/bench-c4.log:9']);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['v/bench-c4.log:9 normalize/duplicate-run']);
    expect(sink.list()[0]?.message).toBe('same measurement as v/bench-c4.json:1 (stdout block and result JSON of one run): counted once');
    // the same log twice (a copy beside it, a gzip of it): no result JSON to speak of
    const twice = new DiagnosticCollector();
    dedupeRuns([block, { ...block, source_file: 'v/bench-c4.log.gz' }], twice);
    expect(twice.list().map((d) => `${d.file} ${d.message}`)).toEqual(['v/bench-c4.log.gz same measurement as v/bench-c4.log:9 (one result saved twice): counted once']);
  });

  it("gives a self-timed run (its trace's times) no request rate, though its result JSON saves the unused inf", () => {
    const rows = dedupeRuns([{ ...block, self_timed: true }, { ...json, request_rate: Number.POSITIVE_INFINITY }], new DiagnosticCollector());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ self_timed: true, source_file: 'v/bench-c4.json' });
    expect(rows[0]).not.toHaveProperty('request_rate');
    // a run sent all at once keeps its inf
    expect(dedupeRuns([block, { ...json, request_rate: Number.POSITIVE_INFINITY }], new DiagnosticCollector())[0]).toMatchObject({ request_rate: Number.POSITIVE_INFINITY });
  });

  it("keeps runs whose files name different batch limits (auto_tune.sh's bm_log_<seqs>_<tokens>_…)", () => {
    const limits: Parameters<typeof dedupeRuns>[2] = (row) => (String(row.source_file).includes('512') ? { max_num_seqs: 512 } : { max_num_seqs: 128 });
    const a = { ...block, source_file: 'v/bm_log_128_2048_requestrate_inf.txt' };
    const b = { ...block, source_file: 'v/bm_log_512_2048_requestrate_inf.txt' };
    expect(dedupeRuns([a, b], new DiagnosticCollector(), limits)).toHaveLength(2);
    expect(dedupeRuns([a, { ...b, max_num_seqs: 128 }], new DiagnosticCollector())).toHaveLength(1);
  });

  it('keeps runs that differ in a count or the duration', () => {
    const sink = new DiagnosticCollector();
    expect(dedupeRuns([block, { ...json, completed: 39 }], sink)).toHaveLength(2);
    expect(dedupeRuns([block, { ...json, duration_s: 12.5 }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
  });

  it('counts the stdout block in logs/ and the result JSON in results/ once, when they share a latency to agree on', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([{ ...block, source_file: 'logs/run.log', mean_ttft_ms: 31.07 }, { ...json, source_file: 'results/c4.json', mean_ttft_ms: 31.0712 }], sink);
    expect(rows.map((r) => r.source_file)).toEqual(['results/c4.json']);
    expect(sink.list().map((d) => `${d.file} ${d.code}`)).toEqual(['logs/run.log normalize/duplicate-run']);
    // counts and a duration alone (an offline benchmark prints no latency): two configurations can share them
    expect(dedupeRuns([block, { ...json, source_file: 'w/bench-c4.json' }], new DiagnosticCollector())).toHaveLength(2);
  });

  it('keeps copies that state different load points, however alike their numbers', () => {
    const sink = new DiagnosticCollector();
    expect(dedupeRuns([{ ...block, max_concurrency: 1 }, { ...json, max_concurrency: 5 }], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...block, request_rate: 4 }, { ...json, request_rate: Number.POSITIVE_INFINITY }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
    // a copy that does not state one is still the same measurement
    expect(dedupeRuns([{ ...block, max_concurrency: null }, { ...json, max_concurrency: 5, request_rate: 4 }], sink)).toHaveLength(1);
    expect(dedupeRuns([{ ...block, max_concurrency: 5 }, { ...json, max_concurrency: 5 }], new DiagnosticCollector())).toHaveLength(1);
  });

  it('keeps copies that state different configurations, however alike their numbers', () => {
    const sink = new DiagnosticCollector();
    // a synthetic sweep: two models, or two K, with the same counts, duration and latencies
    expect(dedupeRuns([{ ...block, model: 'org/model-2' }, { ...json, model: 'org/model-0' }], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...block, num_spec_tokens: 2 }, { ...json, num_spec_tokens: 4 }], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...block, tp: 1 }, { ...json, tp: 2 }], sink)).toHaveLength(2);
    const dated = { ...json, date: '20251102-100100', mean_ttft_ms: 31.0712 };
    expect(withoutCopies([{ ...dated, model: 'org/model-2' }, { ...dated, source_file: 'w/bench-c4.json', model: 'org/model-0' }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
    // a copy that does not state it, or spells the model as a path, is still the same measurement
    expect(dedupeRuns([{ ...block, model: '/models/llama-3-8b' }, { ...json, model: 'meta/llama-3-8b', tp: 2 }], sink)).toHaveLength(1);
    // what the paths say counts too: the same numbers under eagle3-k2/ and medusa-k2/ are two runs
    const byPath = (row: Record<string, unknown>) => (String(row.source_file).startsWith('medusa') ? { spec_method: 'medusa' } : { spec_method: 'eagle3' });
    const twoFolders = [{ ...block, source_file: 'eagle3-k2/c4.log', mean_ttft_ms: 31.07 }, { ...json, source_file: 'medusa-k2/c4.json', mean_ttft_ms: 31.0712 }];
    expect(dedupeRuns(twoFolders, sink)).toHaveLength(1);
    expect(dedupeRuns(twoFolders, sink, byPath)).toHaveLength(2);
  });

  it('counts a result copied to another folder once, not as a repeat, and only an exact copy', () => {
    const sink = new DiagnosticCollector();
    const dated = { ...json, date: '20251102-100100', mean_ttft_ms: 31.0712 };
    const copy = { ...dated, source_file: 'best/bench-c4.json', tp: null };
    const rows = withoutCopies([copy, { ...dated, tp: 4 }], sink);
    // the copy with more values stays (build-runs: the one its server log was linked to)
    expect(rows.map((r) => [r.source_file, r.tp])).toEqual([['v/bench-c4.json', 4]]);
    expect(JSON.parse(String(rows[0]?.config_sources))).toEqual(['b', 'duplicate:best/bench-c4.json:1']);
    expect(sink.list().map((d) => `${d.file} ${d.code} ${d.message}`)).toEqual([
      'best/bench-c4.json normalize/copied-run a copy of v/bench-c4.json:1 (finished at the same time with the same values): counted once, not as a repeat',
    ]);
    // a repeat that finished at another time, or a copy with any value changed, is a run of its own
    expect(withoutCopies([dated, { ...copy, date: '20251102-101500' }], new DiagnosticCollector())).toHaveLength(2);
    expect(withoutCopies([dated, { ...copy, mean_ttft_ms: 31.0713 }], new DiagnosticCollector())).toHaveLength(2);
    // an infinite rate is a value, not one missing
    expect(withoutCopies([{ ...dated, request_rate: Number.POSITIVE_INFINITY }, { ...copy, request_rate: null }], new DiagnosticCollector())).toHaveLength(2);
    expect(withoutCopies([{ ...dated, request_rate: Number.POSITIVE_INFINITY }, { ...copy, request_rate: Number.POSITIVE_INFINITY }], new DiagnosticCollector())).toHaveLength(1);
    // without a time, rows in two folders are never one
    expect(withoutCopies([json, { ...json, source_file: 'best/bench-c4.json' }], new DiagnosticCollector())).toHaveLength(2);
  });

  it('tells copies from other runs that finished at the same second after as long, and keeps the rows in their order', () => {
    const dated = { ...json, date: '20251102-100100', mean_ttft_ms: 31.0712 };
    const other = { ...dated, source_file: 'v/bench-c8.json', mean_ttft_ms: 48.5, label: 'c8' };
    // the copy with fewer values goes (its values merge into the one kept)
    const copyOfOther = { ...other, source_file: 'best/bench-c8.json', label: null };
    const later = { ...dated, source_file: 'v/bench-c16.json', date: '20251102-101500' };
    const sink = new DiagnosticCollector();
    const rows = withoutCopies([dated, other, later, copyOfOther], sink);
    expect(rows.map((r) => [r.source_file, r.label])).toEqual([['v/bench-c4.json', null], ['v/bench-c8.json', 'c8'], ['v/bench-c16.json', null]]);
    expect(sink.list().map((d) => `${d.file} ${d.code}`)).toEqual(['best/bench-c8.json normalize/copied-run']);
  });

  it('keeps repeats that share counts, duration and throughput to two decimals but not their latencies', () => {
    const sink = new DiagnosticCollector();
    const repeat = { ...block, source_line: 40, mean_ttft_ms: 31.07 };
    expect(dedupeRuns([{ ...block, mean_ttft_ms: 29.88 }, repeat, { ...json, mean_ttft_ms: 31.0712 }], sink).map((r) => r.source_line)).toEqual([9, 1]);
    // the JSON copy joined the block it agrees with, however the rows come
    expect(sink.list().map((d) => `${d.file}:${d.line}`)).toEqual(['v/bench-c4.log:40']);
    expect(dedupeRuns([{ ...json, mean_ttft_ms: 31.0712 }, { ...block, mean_ttft_ms: 29.88 }, repeat], new DiagnosticCollector()).map((r) => r.source_line)).toEqual([1, 9]);
  });
});

describe('dedupeRuns: GuideLLM console rows and benchmarks.json', () => {
  const consoleRow = { source_file: 'g/guidellm.log', source_line: 20, source_format: 'guidellm-console', config_sources: '["bench-args"]', label: null, client: 'guidellm', strategy: 'constant', total_input_tokens: 55296, total_output_tokens: 27648, median_ttft_ms: 27.3, p95_ttft_ms: 38.8, duration_s: 30 };
  const jsonRow = { ...consoleRow, source_file: 'g/benchmarks.json', source_line: 40, source_format: 'guidellm-json', request_rate: 7.5, completed: 216, total_output_tokens: 27648, median_ttft_ms: 27.31, p95_ttft_ms: 38.77, duration_s: 30.02 };

  it('meet by strategy and tokens, and are one benchmark when their printed latencies agree', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([consoleRow, jsonRow], sink);
    expect(rows.map((r) => [r.source_file, r.request_rate])).toEqual([['g/benchmarks.json', 7.5]]);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['g/guidellm.log:20 normalize/duplicate-run']);
  });

  it('stay apart with another strategy, other tokens, a latency off by more than its last digit, or none to agree on', () => {
    for (const other of [{ strategy: 'poisson' }, { total_input_tokens: 55040 }, { median_ttft_ms: 27.4 }, { median_ttft_ms: null, p95_ttft_ms: null }]) {
      expect(dedupeRuns([consoleRow, { ...jsonRow, ...other }], new DiagnosticCollector())).toHaveLength(2);
    }
  });

  it("meet with a sweep's computed rate, which the 0.2/0.3 console prints to two decimals, but not with another rate", () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([{ ...consoleRow, request_rate: 7.5 }, { ...jsonRow, request_rate: 7.504817 }], sink);
    expect(rows.map((r) => [r.source_file, r.request_rate])).toEqual([['g/benchmarks.json', 7.504817]]);
    expect(dedupeRuns([{ ...consoleRow, request_rate: 7.51 }, { ...jsonRow, request_rate: 7.504817 }], new DiagnosticCollector())).toHaveLength(2);
    expect(dedupeRuns([{ ...consoleRow, max_concurrency: 4 }, { ...jsonRow, max_concurrency: 8 }], new DiagnosticCollector())).toHaveLength(2);
  });

  it('never merges two rows of one file: the benchmarks of one report are as many runs, however alike', () => {
    expect(dedupeRuns([consoleRow, { ...consoleRow, source_line: 21 }], new DiagnosticCollector())).toHaveLength(2);
  });
});

describe('dedupeRuns: a single-batch benchmark printed and saved', () => {
  const printed = { source_file: 'b/bench.log', source_line: 12, source_format: 'sglang-bench-one-batch-server', config_sources: '["bench-args"]', label: null, client: 'sglang-bench-one-batch-server', batch_size: 16, total_latency_ms: 1660, output_throughput: 2393.64, input_throughput: 53229.37 };
  const saved = { ...printed, source_file: 'b/results.jsonl', source_line: 2, total_latency_ms: 1661.9, output_throughput: 2393.6371, input_throughput: 53229.3698, input_len: 1024 };

  it('is one batch when its throughputs agree to their printed decimals and its latency to the printed hundredth of a second', () => {
    const sink = new DiagnosticCollector();
    // the JSONL kept (full precision), even with fewer values than the printed copy
    expect(dedupeRuns([{ ...printed, last_ttft_ms: 1230, max_ttft_ms: 1230 }, saved], sink).map((r) => [r.source_file, r.output_throughput, r.max_ttft_ms])).toEqual([['b/results.jsonl', 2393.6371, 1230]]);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`)).toEqual([
      'b/bench.log:12 normalize/duplicate-run same measurement as b/results.jsonl:2 (stdout block and result JSON of one run): counted once',
    ]);
  });

  it('is two batches with a throughput or the latency apart, another batch size, in one file, or with no throughput to agree on', () => {
    for (const other of [{ output_throughput: 2393.66 }, { total_latency_ms: 1670 }, { batch_size: 32 }, { source_file: 'b/bench.log' }, { output_throughput: null, input_throughput: null }]) {
      const a = other.output_throughput === null ? { ...printed, output_throughput: null, input_throughput: null } : printed;
      expect(dedupeRuns([a, { ...saved, ...other }], new DiagnosticCollector())).toHaveLength(2);
    }
  });
});

describe('dedupeRuns: a trtllm-bench report and its copies', () => {
  const report = { source_file: 'blog/post.md', source_line: 7, source_format: 'trtllm-bench', config_sources: '["bench-args"]', label: null, client: 'trtllm-bench', model: 'm', num_prompts: 100, request_throughput: 86.5373, output_throughput: 11076.77, duration_s: 1.1555715 };

  it('is one report quoted twice in one write-up, or beside its --report_json, with no request totals to agree on', () => {
    const quoted = { ...report, source_line: 125, label: 'Analyze performance results', num_prompts: null };
    expect(dedupeRuns([report, quoted], new DiagnosticCollector()).map((r) => [r.source_line, r.label])).toEqual([[7, 'Analyze performance results']]);
    const json = { ...report, source_file: 'blog/report.json', source_format: 'trtllm-bench-report-json', request_throughput: 86.53731234, output_throughput: 11076.7700412, duration_s: 1.15557149 };
    expect(dedupeRuns([report, json], new DiagnosticCollector()).map((r) => r.source_file)).toEqual(['blog/report.json']);
  });

  it('keeps two reports with a throughput or the latency apart, other request counts or configurations, or in two folders', () => {
    for (const other of [{ request_throughput: 86.5374 }, { duration_s: 1.1555716 }, { num_prompts: 200 }, { model: 'n' }, { source_file: 'other/post.md' }]) {
      expect(dedupeRuns([report, { ...report, source_line: 125, ...other }], new DiagnosticCollector())).toHaveLength(2);
    }
  });
});

describe("dedupeRuns: a row of vLLM's benchmark_results.json beside the result file it summarises", () => {
  // `results/<test name>.json` and the summary row convert-results-json-to-markdown.py made of it: no duration nor token totals
  const raw = { source_file: 'results/serving_llama8B_tp1_sharegpt_qps_1.json', source_line: 1, source_format: 'vllm-bench-result-json', config_sources: '["a"]', label: null, client: 'vllm-bench-serve', model: 'meta-llama/Llama-3.1-8B', tp: 1, request_rate: 1, completed: 200, failed: 0, duration_s: 205.51, total_input_tokens: 43024, total_output_tokens: 41210, request_throughput: 0.9731775304667747, output_throughput: 200.52323015267893, mean_ttft_ms: 21.304118221, median_tpot_ms: 8.395120731, std_ttft_ms: 6.12 };
  const row = { source_file: 'results/benchmark_results.json', source_line: 1, source_format: 'vllm-perf-benchmarks-json', config_sources: '["b"]', label: 'serving_llama8B_tp1_sharegpt_qps_1', client: 'vllm-bench-serve', tp: 1, dataset: 'sharegpt', request_rate: 1, gpu: 'NVIDIA H100 80GB HBM3', gpus_on_machine: 8, completed: 200, request_throughput: 0.9731775304667747, output_throughput: 200.52323015267893, mean_ttft_ms: 21.304118221, median_tpot_ms: 8.395120731 };

  it('counts them once: the result file kept, the test name its label, the GPU merged in', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([row, raw], sink);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source_file: raw.source_file, label: row.label, std_ttft_ms: 6.12, gpu: 'NVIDIA H100 80GB HBM3', gpus_on_machine: 8, dataset: 'sharegpt' });
    expect(JSON.parse(String(rows[0]?.config_sources))).toEqual(['a', 'duplicate:results/benchmark_results.json:1']);
    expect(sink.list().map((d) => `${d.file} ${d.message}`)).toEqual([`results/benchmark_results.json same measurement as ${raw.source_file}:1 (result file and the benchmark_results.json row made from it): counted once`]);
    // a latency the script converted to ms, which the latency grammar rounds to 12 digits
    const latency = { source_file: 'results/latency_llama8B_tp1.json', source_line: 1, source_format: 'vllm-bench-latency', config_sources: '["a"]', label: null, client: 'vllm-bench-latency', mean_batch_latency_ms: 614.741428184, p50_batch_latency_ms: 613.604966833, num_iters: 15 };
    const latencyRow = { ...row, label: 'latency_llama8B_tp1', client: 'vllm-bench-latency', dataset: null, request_rate: null, completed: null, request_throughput: null, output_throughput: null, mean_ttft_ms: null, median_tpot_ms: null, mean_batch_latency_ms: 614.7414281844603, p50_batch_latency_ms: 613.6049668333326 };
    expect(dedupeRuns([latencyRow, latency], new DiagnosticCollector()).map((r) => r.source_file)).toEqual([latency.source_file]);
  });

  it('keeps them apart with another test name, folder or load point, a value off, or none to agree on', () => {
    const sink = new DiagnosticCollector();
    for (const other of [{ label: 'serving_llama8B_tp1_sharegpt_qps_4' }, { source_file: 'old/benchmark_results.json' }, { request_rate: 4 }, { output_throughput: 200.5232 }, { tp: 2 }, { client: 'vllm-bench-latency' }]) {
      expect(dedupeRuns([{ ...row, ...other }, raw], sink), JSON.stringify(other)).toHaveLength(2);
    }
    const bare = { ...row, completed: null, request_throughput: null, output_throughput: null, mean_ttft_ms: null, median_tpot_ms: null };
    expect(dedupeRuns([bare, raw], sink)).toHaveLength(2);
    // two summaries of one folder (a copy of the file) are not this rule's to merge
    expect(dedupeRuns([row, { ...row, source_file: 'results/benchmark_results (1).json' }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
  });
});

describe('dedupeRuns: an InferenceX processed result beside the client result it was made from', () => {
  // the client's vLLM-format JSON, and process_result.py's agg_ file: latencies in s (read back as ms), throughput rebuilt from per-GPU figures
  const raw = { source_file: 'r/dsr1_1k1k_conc64.json', source_line: 1, source_format: 'vllm-bench-result-json', config_sources: '["a"]', label: null, model: 'deepseek-ai/DeepSeek-R1-0528', max_concurrency: 64, completed: 640, duration_s: 241.7, output_throughput: 2711.4, mean_ttft_ms: 412.7, mean_tpot_ms: 22.91, std_ttft_ms: 190.3 };
  const agg = { source_file: 'r/agg_dsr1_1k1k_conc64.json', source_line: 1, source_format: 'inferencex-result-json', config_sources: '["b"]', label: null, model: 'deepseek-ai/DeepSeek-R1-0528', max_concurrency: 64, gpu: 'H200', tp: 8, output_throughput: 338.925 * 8, mean_ttft_ms: 0.4127 * 1000, mean_tpot_ms: 0.02291 * 1000 };

  it('counts them once, with the values of both', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([raw, agg], sink);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ completed: 640, std_ttft_ms: 190.3, gpu: 'H200', tp: 8 });
    expect(sink.list().map((d) => d.message)).toEqual([expect.stringContaining('(client result and the processed result made from it): counted once')]);
  });

  it('keeps two measurements apart, and two processed results of one load point', () => {
    const sink = new DiagnosticCollector();
    expect(dedupeRuns([raw, { ...agg, mean_ttft_ms: 413.1 }], sink)).toHaveLength(2);
    expect(dedupeRuns([raw, { ...agg, max_concurrency: 32 }], sink)).toHaveLength(2);
    expect(dedupeRuns([raw, { ...agg, tp: 4, model: 'other/Model' }], sink)).toHaveLength(2);
    expect(dedupeRuns([agg, { ...agg, source_file: 'r/agg_copy.json' }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
  });
});

describe("dedupeRuns: a bench_speculative.py grid point's console block and its JSONL line", () => {
  // the measured block before `Finish i=1: …, speed=394.82 token/s, step_time=7.92 ms` (sglang-bench-serving), and the line of output.jsonl
  const consoleRow = { source_file: 's/bench_speculative.log', source_line: 117, source_format: 'sglang-bench-serving', config_sources: '["bench-args"]', label: null, client: 'sglang-bench-speculative', batch_size: 1, max_concurrency: 1, spec_num_steps: 3, spec_eagle_topk: 1, spec_num_draft_tokens: 4, num_spec_tokens: 4, completed: 16, duration_s: 21.52, total_output_tokens: 8192, output_throughput: 380.67, mean_ttft_ms: 17.04, spec_acceptance_length: 3.13, output_speed_per_user: 394.82, p20_step_time_ms: 7.92 };
  const jsonlRow = { source_file: 's/output.jsonl', source_line: 2, source_format: 'sglang-bench-speculative-jsonl', config_sources: '["bench-args"]', label: null, client: 'sglang-bench-speculative', batch_size: 1, max_concurrency: 1, spec_num_steps: 3, spec_eagle_topk: 1, spec_num_draft_tokens: 4, num_spec_tokens: 4, spec_acceptance_length: 3.127, output_speed_per_user: 394.823, p20_step_time_ms: 7.92, output_throughput: 394.823, mean_output_len: 512 };
  const base = { spec_method: 'none', spec_num_steps: null, spec_eagle_topk: null, spec_num_draft_tokens: null, num_spec_tokens: null, spec_acceptance_length: null };

  it('is one grid point when the speed and step time agree to the two decimals the console prints, the JSONL kept', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([consoleRow, jsonlRow], sink);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source_file: 's/output.jsonl', output_speed_per_user: 394.823, completed: 16, mean_ttft_ms: 17.04 });
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      's/bench_speculative.log:117 same measurement as s/output.jsonl:2 (stdout block and result JSON of one run): counted once',
    ]);
    // the baseline too, and whichever client the console row names
    const baseRows = dedupeRuns([{ ...consoleRow, ...base, client: 'sglang-bench-serving', output_speed_per_user: 161.03, p20_step_time_ms: 6.21 }, { ...jsonlRow, ...base, output_speed_per_user: 161.028, p20_step_time_ms: 6.21 }], new DiagnosticCollector());
    expect(baseRows.map((r) => r.source_file)).toEqual(['s/output.jsonl']);
  });

  it('keeps grid points apart: another knob, batch size, speed or step time, the baseline, two lines of one file or of two JSONL files', () => {
    const others = [
      { spec_num_draft_tokens: 6, num_spec_tokens: 6 },
      { spec_eagle_topk: 2 },
      { batch_size: 8, max_concurrency: 8 },
      { output_speed_per_user: 394.83 },
      { p20_step_time_ms: 7.93 },
      { ...base, spec_num_steps: 3, spec_eagle_topk: 1, spec_num_draft_tokens: 4 },
      { source_file: 's/bench_speculative.log' },
      { source_format: 'sglang-bench-serving', source_file: 's/other.log' },
    ];
    expect(dedupeRuns([consoleRow, jsonlRow], new DiagnosticCollector())).toHaveLength(1);
    for (const other of others) expect(dedupeRuns([consoleRow, { ...jsonlRow, ...other }], new DiagnosticCollector()), JSON.stringify(other)).toHaveLength(2);
    // two models (from their paths, a manifest): two sweeps
    expect(dedupeRuns([{ ...consoleRow, model: 'Qwen/Qwen3-8B' }, { ...jsonlRow, model: 'meta-llama/Llama-3.1-8B-Instruct' }], new DiagnosticCollector())).toHaveLength(2);
    // a grid point run again (`--start`), in one JSONL and in a second one: repeats, not copies
    expect(dedupeRuns([jsonlRow, { ...jsonlRow, source_line: 3 }], new DiagnosticCollector())).toHaveLength(2);
    expect(dedupeRuns([jsonlRow, { ...jsonlRow, source_file: 's/run2/output.jsonl' }], new DiagnosticCollector())).toHaveLength(2);
  });
});

describe('dedupeRuns: EvalScope printed tables and saved results', () => {
  const saved = { source_file: 'out/20260105/m/benchmark_summary.json', source_line: 1, source_format: 'evalscope-perf-json', config_sources: '[]', client: 'evalscope-perf', max_concurrency: 8, request_rate: Number.POSITIVE_INFINITY, completed: 64, failed: 0, duration_s: 12.3456, output_throughput: 1327.0912, mean_e2el_ms: 3932.1, mean_ttft_ms: 81.234, p99_ttft_ms: null };
  const console = { ...saved, source_file: 'out/20260105/m/benchmark.log', source_line: 40, source_format: 'evalscope-perf-console', duration_s: 12.35, output_throughput: 1327.09, mean_e2el_ms: 3930, mean_ttft_ms: 81.23, p99_ttft_ms: 140 };
  const report = { ...console, source_file: 'out/20260105/performance_summary.txt', source_line: 12, completed: null, failed: null, duration_s: null };

  it('counts a run once when its console table and its benchmark_summary.json are both read, the JSON values first', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([console, saved], sink);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source_format: 'evalscope-perf-json', mean_e2el_ms: 3932.1, p99_ttft_ms: 140 });
    expect(sink.list().map((d) => d.message)).toEqual([`same measurement as ${saved.source_file}:1 (printed table and result JSON of one run): counted once`]);
  });

  it('counts a sweep report row once with the result of its pair below it, never with one elsewhere', () => {
    expect(dedupeRuns([report, saved], new DiagnosticCollector())).toHaveLength(1);
    expect(dedupeRuns([{ ...report, source_file: 'other/performance_summary.txt' }, saved], new DiagnosticCollector())).toHaveLength(2);
    // a throughput printed rounded up to the next whole one
    expect(dedupeRuns([{ ...console, output_throughput: 1327.5 }, { ...saved, output_throughput: 1327.4999 }], new DiagnosticCollector())).toHaveLength(1);
    // a console table has counts to agree on: it may be a log kept anywhere
    expect(dedupeRuns([{ ...console, source_file: 'logs/evalscope.log' }, saved], new DiagnosticCollector())).toHaveLength(1);
  });

  it('counts a run printed twice (its console kept apart, its sweep report) and saved once as one', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([{ ...console, source_file: 'logs/evalscope.log' }, saved, report], sink);
    expect(rows.map((r) => r.source_file)).toEqual([saved.source_file]);
    expect(sink.list().map((d) => d.file)).toEqual(['logs/evalscope.log', report.source_file]);
  });

  it('keeps runs apart that differ beyond the printed precision, in a count, or in load', () => {
    const sink = new DiagnosticCollector();
    expect(dedupeRuns([{ ...console, output_throughput: 1327.2 }, saved], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...console, mean_e2el_ms: 3940 }, saved], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...console, completed: 63 }, saved], sink)).toHaveLength(2);
    expect(dedupeRuns([{ ...console, max_concurrency: 4 }, saved], sink)).toHaveLength(2);
    // two saved results (two invocations alike) are never merged by this rule, nor two printed ones
    expect(dedupeRuns([{ ...saved, source_file: 'b/benchmark_summary.json', duration_s: 12.35 }, saved], sink)).toHaveLength(2);
    expect(dedupeRuns([console, { ...console, source_file: 'b/benchmark.log' }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
  });
});

describe('dedupeRuns: a GuideLLM CSV row read for its leading fields only', () => {
  const json = { source_file: 'gl/benchmarks.json', source_line: 40, source_format: 'guidellm-json', config_sources: '[]', client: 'guidellm', strategy: 'concurrent', max_concurrency: 8, completed: 120, failed: 0, incomplete: 6, duration_s: 30.0012, total_input_tokens: 61440, total_output_tokens: 30720, output_throughput: 1023.9, mean_ttft_ms: 80.1 };
  const partial = { source_file: 'gl/benchmarks.csv', source_line: 6, source_format: 'guidellm-csv', config_sources: '[]', client: 'guidellm', strategy: 'concurrent', max_concurrency: 8, completed: 120, failed: 0, incomplete: 6, duration_s: 30.001 };

  it('counts it once with the benchmark of the JSON beside it, the JSON kept', () => {
    const sink = new DiagnosticCollector();
    const rows = dedupeRuns([partial, json], sink);
    expect(rows.map((r) => r.source_file)).toEqual(['gl/benchmarks.json']);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual(['gl/benchmarks.csv:6 same measurement as gl/benchmarks.json:40 (CSV row and result JSON of one benchmark): counted once']);
  });

  it('keeps it apart from a benchmark of another folder, load point or count', () => {
    const sink = new DiagnosticCollector();
    expect(dedupeRuns([partial, { ...json, source_file: 'other/benchmarks.json' }], sink)).toHaveLength(2);
    expect(dedupeRuns([partial, { ...json, max_concurrency: 16 }], sink)).toHaveLength(2);
    expect(dedupeRuns([partial, { ...json, incomplete: 5 }], sink)).toHaveLength(2);
    expect(dedupeRuns([partial, { ...json, duration_s: 60 }], sink)).toHaveLength(2);
    // a whole CSV row is met by its tokens (guidellmIdentity), not by this rule
    expect(dedupeRuns([{ ...partial, output_throughput: 1000 }, { ...json, total_input_tokens: 1 }], sink)).toHaveLength(2);
    expect(sink.list()).toEqual([]);
  });
});
