import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalCompare, naturalOrder } from '../../src/core/natural-order.js';

describe('naturalCompare', () => {
  it('reads the numbers in labels as numbers', () => {
    expect(naturalOrder(['model-10', 'model-2', 'org/Llama-3.1-70B', 'org/Llama-3.1-8B', 'eagle3 K=16', 'eagle3 K=2', '64', '8', '0.25', '0.5', 'v0.10.1', 'v0.9.2'])).toEqual([
      '0.25',
      '0.5',
      '8',
      '64',
      'eagle3 K=2',
      'eagle3 K=16',
      'model-2',
      'model-10',
      'org/Llama-3.1-8B',
      'org/Llama-3.1-70B',
      'v0.9.2',
      'v0.10.1',
    ]);
  });

  it('orders labels that differ only in a number by that number, whatever its length', () => {
    fc.assert(
      fc.property(fc.string(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.string(), (prefix, a, b, suffix) => {
        fc.pre(a !== b && !/\d$/.test(prefix) && !/^\d/.test(suffix));
        expect(Math.sign(naturalCompare(`${prefix}${a}${suffix}`, `${prefix}${b}${suffix}`))).toBe(a < b ? -1 : 1);
      }),
    );
  });

  it('is a total order: antisymmetric, zero only for equal text', () => {
    const label = fc.stringMatching(/^[a-c0-9.=-]{0,6}$/);
    fc.assert(
      fc.property(label, label, (x, y) => {
        expect(Math.sign(naturalCompare(x, y)) + Math.sign(naturalCompare(y, x))).toBe(0);
        expect(naturalCompare(x, y) === 0).toBe(x === y);
      }),
    );
  });
});

describe('naturalCompare as a sort order', () => {
  it('is transitive, so every sort of the same labels gives one order', () => {
    const label = fc.oneof(fc.stringMatching(/^[a-b0-9.-]{0,5}$/), fc.double({ min: -100, max: 100, noNaN: true }).map(String));
    fc.assert(
      fc.property(label, label, label, (x, y, z) => {
        if (naturalCompare(x, y) < 0 && naturalCompare(y, z) < 0) expect(naturalCompare(x, z)).toBeLessThan(0);
      }),
      { numRuns: 20_000 },
    );
  });
});
