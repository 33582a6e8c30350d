import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector, formatDiagnostic } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-evalscope-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (c: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(FIXTURES, 'evalscope-perf-json', c, 'input.json'), 'utf8')) as Record<string, unknown>;

/** `evalscope perf --parallel 1 10 --number 10 100`: one sub-folder per pair, each with its summary, args and percentiles. */
function writeRun(root: string, parallel: number, number: number, overrides: Record<string, unknown>): void {
  const dir = path.join(root, `parallel_${parallel}_number_${number}`);
  mkdirSync(dir, { recursive: true });
  const summary = { ...fixture('basic-summary'), 'Number of concurrency': parallel, 'Total requests': number, 'Succeed requests': number, ...overrides };
  const args = { ...fixture('args-random-fixed-lengths'), parallel, number, outputs_dir: dir };
  writeFileSync(path.join(dir, 'benchmark_summary.json'), JSON.stringify(summary, null, 4));
  writeFileSync(path.join(dir, 'benchmark_args.json'), JSON.stringify(args, null, 4));
  writeFileSync(path.join(dir, 'benchmark_percentile.json'), readFileSync(path.join(FIXTURES, 'evalscope-perf-json', 'percentile-rows', 'input.json')));
}

describe('evalscope perf output folder with two parallel values', () => {
  it('gives two runs, each with its own concurrency and the model and dataset of its args file', () => {
    const root = path.join(tmp, 'outputs/20250611_141502/Qwen2.5-7B-Instruct');
    writeRun(root, 1, 10, { 'Time taken for tests (s)': 41.02, 'Average latency (s)': 4.1021 });
    writeRun(root, 10, 100, { 'Time taken for tests (s)': 42.3108 });
    const scanned = scanPaths([path.join(tmp, 'outputs')]);
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(scanned.records.slice(), sink);
    expect(rows.map((r) => [r.source_file, r.source_format, r.client, r.max_concurrency, r.num_prompts, r.model, r.dataset, r.input_len, r.output_len, r.request_rate])).toEqual([
      ['20250611_141502/Qwen2.5-7B-Instruct/parallel_10_number_100/benchmark_summary.json', 'evalscope-perf-json', 'evalscope-perf', 10, 100, 'Qwen/Qwen2.5-7B-Instruct', 'random', 1024, 256, Infinity],
      ['20250611_141502/Qwen2.5-7B-Instruct/parallel_1_number_10/benchmark_summary.json', 'evalscope-perf-json', 'evalscope-perf', 1, 10, 'Qwen/Qwen2.5-7B-Instruct', 'random', 1024, 256, Infinity],
    ]);
    // each run's config is the args file of its own folder (the deepest above it)
    for (const r of rows) {
      const dir = path.dirname(String(r.source_file));
      expect(JSON.parse(String(r.config_sources))).toContain(`bench-config:${dir}/benchmark_args.json:1`);
    }
    expect(rows.map((r) => r.mean_e2el_ms)).toEqual([4118.7, 4102.1]);
    // each run's percentiles come from the table beside it (seconds → ms), named in its sources; never a run
    expect(rows.map((r) => [r.p99_ttft_ms, r.median_e2el_ms, r.p10_tpot_ms])).toEqual([[183.2, 4102.1, 7.4], [183.2, 4102.1, 7.4]]);
    for (const r of rows) {
      const dir = path.dirname(String(r.source_file));
      expect(JSON.parse(String(r.config_sources))).toContain(`bench-metrics:${dir}/benchmark_percentile.json:1`);
    }
    const all = [...scanned.diagnostics, ...sink.list()].map(formatDiagnostic);
    expect(all.filter((d) => / (warning|error) /.test(d))).toEqual([]);
  });

  it('joins a percentile table to no run when its folder holds two of them (which one is it?)', () => {
    const root = path.join(tmp, 'two');
    writeRun(root, 1, 10, {});
    const dir = path.join(root, 'parallel_1_number_10');
    writeFileSync(path.join(dir, 'benchmark_summary_copy.json'), JSON.stringify({ ...fixture('basic-summary'), 'Number of concurrency': 4, 'Time taken for tests (s)': 50.5 }, null, 4));
    const scanned = scanPaths([root]);
    const { rows } = buildRuns(scanned.records.slice(), new DiagnosticCollector());
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.p99_ttft_ms ?? null).toBeNull();
  });

  it('fills a multi-turn run from every companion beside it: percentiles, per-conversation and windowed throughputs', () => {
    const dir = path.join(tmp, 'multi-turn', 'run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'benchmark_summary.json'), JSON.stringify(fixture('layout-2025-multi-turn-keys'), null, 4));
    for (const [name, c] of [['benchmark_percentile.json', 'percentile-rows'], ['trace_summary.json', 'legacy-trace-summary'], ['workload_throughput.json', 'legacy-workload-throughput'], ['workload_timeline.json', 'legacy-workload-timeline']] as const) {
      writeFileSync(path.join(dir, name), readFileSync(path.join(FIXTURES, 'evalscope-perf-json', c, 'input.json')));
    }
    const scanned = scanPaths([path.join(tmp, 'multi-turn')]);
    const { rows } = buildRuns(scanned.records.slice(), new DiagnosticCollector());
    expect(rows).toHaveLength(1);
    const run = rows[0] as Record<string, unknown>;
    expect([run.p99_ttft_ms, run.mean_ttfat_ms, run.post_warmup_output_throughput]).toEqual([183.2, 38200, 301.25]);
    expect(JSON.parse(String(run.config_sources))).toEqual([
      'bench-args',
      'bench-metrics:run/benchmark_percentile.json:1',
      'bench-metrics:run/trace_summary.json:1',
      'bench-metrics:run/workload_throughput.json:1',
    ]);
  });
});
