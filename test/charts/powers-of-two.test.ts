import { describe, expect, it } from 'vitest';
import { powersOfTwo } from '../../src/charts/metric-lines.js';

describe('powersOfTwo (log-2 axis ticks)', () => {
  it('spans the data with the powers of two around it', () => {
    expect(powersOfTwo([3, 64, 5])).toEqual([2, 4, 8, 16, 32, 64]);
    expect(powersOfTwo([1])).toEqual([1]);
  });

  it('takes the points of a sweep of any size (a spread of 200,000 values overflowed the stack)', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => 1 + (i % 256));
    expect(powersOfTwo(values)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
  });
});
