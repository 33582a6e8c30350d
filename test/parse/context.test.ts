import { describe, expect, it } from 'vitest';
import { documentContext, labelAbove } from '../../src/parse/context.js';

/** The label of a block starting on the last line of `lines`. */
function label(lines: string[]): string | null {
  return labelAbove(documentContext(lines), lines, lines.length - 1, -1);
}

describe('labelAbove', () => {
  it.each([
    ['# request rate: 2', 'request rate: 2'],
    ['# concurrency: 16', 'concurrency: 16'],
    ['# max concurrency: 8', 'max concurrency: 8'],
    ['# BS=1', 'BS=1'],
    ['## Concurrency: 64', 'Concurrency: 64'],
  ])('reads %s as a label', (comment, expected) => {
    expect(label([comment, '============ Serving Benchmark Result ============'])).toBe(expected);
  });

  it.each([
    ['# Concurrency:                              15.43'],
    ['# Successful requests: 100'],
    ['# Request throughput (req/s): 3.21'],
    ['# Maximum request concurrency: 16'],
    ['#Input tokens: 204800'],
    ['# ==================================================='],
  ])('reads %s as a commented block line, not a label', (comment) => {
    expect(label([comment, '============ Serving Benchmark Result ============'])).toBeNull();
  });

  it('skips commented block lines and finds the human comment above them', () => {
    const lines = ['# concurrency: 16', '# Benchmark duration (s):                 40.2', '# Peak concurrent requests: 16', '============ Serving Benchmark Result ============'];
    expect(label(lines)).toBe('concurrency: 16');
  });

  it('takes the nearest heading above, outside fenced code, for every block of a long document alike', () => {
    const header = '============ Serving Benchmark Result ============';
    const lines = ['# Sweep', 'text', '```', '## in a fence', header, '```', '## Successful requests: 100', header, '## Eagle, K=4', 'x', header, '```', header, '```'];
    const ctx = documentContext(lines);
    const labels = lines.flatMap((l, i) => (l === header ? [labelAbove(ctx, lines, i, -1)] : []));
    // a comment in the block's own fence labels it; headings are taken from outside fences only; a statistic is no heading
    expect(labels).toEqual(['in a fence', 'Sweep', 'Eagle, K=4', 'Eagle, K=4']);
    // asked in any order, with the heading index already built, the answers are the same
    expect([10, 4, 7].map((i) => labelAbove(ctx, lines, i, -1))).toEqual(['Eagle, K=4', 'in a fence', 'Sweep']);
    expect(labelAbove(documentContext(['no heading', header]), ['no heading', header], 1, -1)).toBeNull();
  });

  it("names a block under a heading that only says it is output (`#### Expected output`, `### Results`) by the heading above that one", () => {
    const header = '============ Serving Benchmark Result ============';
    const fenced = ['```', header, '```'];
    const lines = ['# Guide', '## Baseline', '### Results', ...fenced, '## EAGLE-3, K=4', '#### Expected Result Format', 'text', ...fenced, '### Results', ...fenced, '## Results', ...fenced];
    const ctx = documentContext(lines);
    const labels = lines.flatMap((l, i) => (l === header ? [labelAbove(ctx, lines, i, -1)] : []));
    // (a generic heading right under the document's title: the title)
    expect(labels).toEqual(['Baseline', 'EAGLE-3, K=4', 'EAGLE-3, K=4', 'Guide']);
    // with nothing above it, the generic heading itself
    expect(label(['## Results', '```', header])).toBe('Results');
  });

  describe('captions', () => {
    const BLOCK = 'Avg latency: 3.386 seconds';
    it.each([
      [['## Notes', 'vLLM results', '', '```', BLOCK], 'vLLM results'],
      [['## Notes', '"helion":', BLOCK], 'helion'],
      [['## Notes', 'torch_npu.npu_mrope():', '```', BLOCK], 'torch_npu.npu_mrope()'],
      [['## Notes', 'With EAGLE-3 (K=4):', '', BLOCK], 'With EAGLE-3 (K=4)'],
      [['## Notes', 'Sample performance output for base model:', '```', BLOCK], 'Sample performance output for base model'],
      [['## Notes', 'kimi2.7', '', '```bash', '', BLOCK], 'kimi2.7'],
    ])('labels a block by the short line that names it right above it or its fence: %j', (lines, expected) => {
      expect(label(lines)).toBe(expected);
    });

    it.each([
      [['## Min-latency', 'The expected results:', '```', BLOCK]],
      [['## Min-latency', 'Example output', '```', BLOCK]],
      [['## Min-latency', '得到的结果如下所示', '```', BLOCK]],
      [['## Min-latency', 'Starting main benchmark run...', BLOCK]],
      [['## Min-latency', 'vllm bench latency --model m --tp 2:', BLOCK]],
      [['## Min-latency', 'Maximum request concurrency: 16', BLOCK]],
      [['## Min-latency', '100%|██████████| 50/50 [00:10<00:00]:', BLOCK]],
      [['## Min-latency', 'vLLM results', '', '', '```', BLOCK]],
      [['## Min-latency', '- vLLM results:', BLOCK]],
      [['## Min-latency', '```', 'vLLM results', '```', '```', BLOCK]],
      [['## Min-latency', 'see http://x/y_z.md', '```', BLOCK]],
      [['## Min-latency', '2024-05-14 12:00:00,123 - root - INFO - Results:', BLOCK]],
    ])('keeps the heading for a line that names nothing, is data, a command, or not right above: %j', (lines) => {
      expect(label(lines)).toBe('Min-latency');
    });

    it('gives no caption from above the previous block', () => {
      const lines = ['## Sweep', 'vLLM results:', 'Avg latency: 1 seconds', BLOCK];
      expect(labelAbove(documentContext(lines), lines, 3, 2)).toBe('Sweep');
    });
  });
});
