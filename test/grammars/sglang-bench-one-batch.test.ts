import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/sglang-bench-one-batch/index.js';
import { secondsToMs } from '../../grammars/sglang-bench-one-batch/runs.js';

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  return { records: grammar.parse({ path: asRelPath('b.txt'), lines }, sink) as RunRecord[], diagnostics: sink.list() };
}

describe('sglang-bench-one-batch', () => {
  it('converts printed seconds to ms without float noise; nan is absent', () => {
    expect(secondsToMs('0.00585')).toBe(5.85);
    expect(secondsToMs(' 0.076')).toBe(76);
    expect(secondsToMs('nan')).toBeUndefined();
  });

  it('makes a run of the benchmarked case and none for the warmup', () => {
    const r = parse([
      'Warmup ...',
      'Prefill. latency: 0.10000 s, throughput:   1000.00 token/s',
      'Total. latency:  0.200 s, throughput:    500.00 token/s',
      'Benchmark ...',
      'Prefill. latency: 0.05000 s, throughput:   2000.00 token/s',
      'Decode 0. Batch size: 2, latency: 0.01000 s, throughput:    200.00 token/s',
      'Decode.  median latency: 0.01100 s, median throughput:    181.82 token/s',
      'Total. latency:  0.090 s, throughput:   1111.11 token/s',
    ]);
    expect(r.records).toHaveLength(1);
    // the run starts at its case's Prefill line, below the header
    expect(r.records[0]?.at.line).toBe(5);
    expect(r.records[0]?.fields).toMatchObject({ batch_size: 2, prefill_latency_ms: 50, median_decode_latency_ms: 11, total_latency_ms: 90, total_token_throughput: 1111.11 });
  });

  it('takes the median of per-step decode lines in old builds', () => {
    const r = parse(['Benchmark ...', 'Prefill. latency: 0.1 s, throughput: 10.00 token/s', ...['0.030', '0.010', '0.020', '0.040'].map((s) => `Decode.  latency: ${s} s, throughput:  1.00 token/s`), 'Total. latency: 1.0 s, throughput: 1.00 token/s']);
    expect(r.records[0]?.fields.median_decode_latency_ms).toBe(20);
  });

  it('makes one run per case of a sweep printed under a single Benchmark header', () => {
    // the tool prints `Benchmark ...` once, then every batch size × input × output case
    const r = parse([
      'Benchmark ...',
      'Prefill. latency: 0.02000 s, throughput:  10000.00 token/s',
      'Decode 0. Batch size: 2, latency: 0.00500 s, throughput:    400.00 token/s',
      'Decode.  median latency: 0.00500 s, median throughput:    400.00 token/s',
      'Total. latency:  0.030 s, throughput:   6000.00 token/s',
      'skipping (64, 100, 2) due to max batch size limit',
      'Prefill. latency: 0.08000 s, throughput:  10000.00 token/s',
      'Decode 0. Batch size: 8, latency: 0.00800 s, throughput:   1000.00 token/s',
      'Decode.  median latency: 0.00800 s, median throughput:   1000.00 token/s',
      'Total. latency:  0.100 s, throughput:   8000.00 token/s',
      'Prefill. latency: 0.30000 s, throughput:  10666.67 token/s',
      'Decode 0. Batch size: 32, latency: 0.01000 s, throughput:   3200.00 token/s',
    ]);
    expect(r.records.map((x) => [x.at.line, x.complete, x.fields.batch_size, x.fields.prefill_latency_ms, x.fields.total_latency_ms ?? null])).toEqual([
      [2, true, 2, 20, 30],
      [7, true, 8, 80, 100],
      // the last case cut short: partial, one warning at its last line
      [11, false, 32, 300, null],
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['block/truncated', 12]]);
  });

  it('keeps a Benchmark header cut before its first case as one partial run', () => {
    const r = parse(['Benchmark ...']);
    expect(r.records.map((x) => [x.at.line, x.complete])).toEqual([[1, false]]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
  });
});
