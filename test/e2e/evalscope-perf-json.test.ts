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
    // the percentile files are claimed and said, never a run; nothing warns
    const all = [...scanned.diagnostics, ...sink.list()].map(formatDiagnostic);
    expect(all.filter((d) => d.includes('evalscope percentile table'))).toHaveLength(2);
    expect(all.filter((d) => / (warning|error) /.test(d))).toEqual([]);
  });
});
