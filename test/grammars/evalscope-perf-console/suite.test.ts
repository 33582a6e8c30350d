import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsOf } from '../../helpers/runs-of.js';

/**
 * One `evalscope perf` invocation saved three ways: the console (`benchmark.log`) beside the
 * `benchmark_summary.json` of the same run, and a sweep's `performance_summary.txt` above the
 * `parallel_N_number_M/benchmark_summary.json` of its two pairs. Each measurement counts once.
 */
const SUITE = path.resolve('fixtures/_suites/evalscope-console');
const rowsOf = (folder: string) => runsOf(path.join(SUITE, folder)).rows.filter((r) => r.client === 'evalscope-perf');

describe('evalscope console suite', () => {
  it('counts the single run once (console log + benchmark_summary.json), the JSON kept with its percentiles', () => {
    const rows = rowsOf('single');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source_format: 'evalscope-perf-json', max_concurrency: 8, completed: 64, total_output_tokens: 16384, model: 'qwen2.5-7b-instruct' });
    // benchmark_percentile.json joins the one run of its folder: the console's copy does not make it two
    expect(typeof rows[0]?.p99_ttft_ms).toBe('number');
    expect(String(rows[0]?.config_sources)).toContain('duplicate:20260105_101500/qwen2.5-7b-instruct/benchmark.log:');
  });

  it('counts each pair of the sweep once (performance_summary.txt + two benchmark_summary.json)', () => {
    const rows = rowsOf('sweep');
    expect(rows.map((r) => [r.max_concurrency, r.source_format])).toEqual([[1, 'evalscope-perf-json'], [4, 'evalscope-perf-json']]);
  });
});
