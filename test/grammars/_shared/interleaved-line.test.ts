import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';
import { INTERLEAVED_LINE } from '../../../grammars/_shared/interleaved-line.js';

// tqdm's bars with a description: another benchmark's, a server's while it starts
const DESCRIBED_BARS = [
  'Processed prompts:  45%|████▌     | 450/1000 [00:13<00:16, 33.0it/s]',
  'Capturing CUDA graphs (decode, FULL): 100%|██████████| 67/67 [00:14<00:00,  4.71it/s]',
  'Benchmarking:   7%|#         | 7/100 [00:01<00:13,  6.90it/s]',
];

describe("a progress bar with a description, another process's", () => {
  it('is an interleaved line; a value with a percent sign, a table row with one, are not', () => {
    for (const bar of DESCRIBED_BARS) expect(INTERLEAVED_LINE.test(bar), bar).toBe(true);
    for (const line of [
      'Cache hit rate:                          74.9%',
      'Acceptance rate (%):                     45.20',
      '| 45%| 12.3 | 4 |',
      'Request throughput (req/s):  12%| 3',
      'Summary: 45%|done|',
    ])
      expect(INTERLEAVED_LINE.test(line), line).toBe(false);
  });

  /** The runs' values of a text, and its diagnostics other than infos. */
  function read(text: string) {
    const sink = new DiagnosticCollector();
    const source = fromBytes(Buffer.from(text), asRelPath('out.log'), sink);
    const parsed = source ? parseSource(source, sink) : { formats: [], records: [] };
    return { values: parsed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields] : [])), notes: sink.list().filter((d) => d.severity !== 'info').map((d) => d.code) };
  }

  // inside a result block (where `label: value` read it as a column of the run), a console's table, a trtllm-bench section
  it.each([
    ['vllm-bench-serve/basic/input.log', 12],
    ['sglang-bench-serving/basic/input.txt', 10],
    ['genai-perf-console/basic/input.txt', 8],
    ['trtllm-bench/basic/input.log', 25],
    // under a report's closing rule, where it was read as a line of the report's last section
    ['trtllm-bench/layout-2026-energy/input.log', 81],
  ])('is passed over inside %s', (fixture, after) => {
    const lines = readFileSync(new URL(`../../../fixtures/${fixture}`, import.meta.url), 'utf8').split('\n');
    const whole = read(lines.join('\n'));
    for (const bar of DESCRIBED_BARS) {
      const mixed = read([...lines.slice(0, after), bar, ...lines.slice(after)].join('\n'));
      expect(mixed.values, bar).toEqual(whole.values);
      expect(mixed.notes, bar).toEqual(whole.notes);
    }
  });
});
