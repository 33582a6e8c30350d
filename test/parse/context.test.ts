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
});
