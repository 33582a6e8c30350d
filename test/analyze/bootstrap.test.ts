import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapCI, median, seededRandom } from '../../src/analyze/bootstrap.js';

/** The interval as first written: a new array for every draw, sorted for its median. */
function referenceCI(a: readonly number[], b: readonly number[], stat: (ma: number, mb: number) => number, seed: number, resamples = 2000) {
  if (a.length === 0 || b.length === 0 || (a.length === 1 && b.length === 1)) return null;
  const rand = seededRandom(seed);
  const pick = (xs: readonly number[]): number[] => xs.map(() => xs[Math.floor(rand() * xs.length)] as number);
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const s = stat(median(pick(a)), median(pick(b)));
    if (Number.isFinite(s)) stats.push(s);
  }
  if (stats.length === 0) return null;
  stats.sort((x, y) => x - y);
  const at = (q: number): number => stats[Math.min(stats.length - 1, Math.max(0, Math.round(q * (stats.length - 1))))] as number;
  return { low: at(0.025), high: at(0.975) };
}

// few distinct values, so resamples hold ties, as repeats of a rounded metric do
const values = fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: 1, max: 1e4, noNaN: true })), { minLength: 1, maxLength: 40 });

describe('bootstrap', () => {
  it('gives the very interval of the sorting implementation', () => {
    const ratio = (ma: number, mb: number) => ma / mb;
    fc.assert(
      fc.property(values, values, fc.nat(), (a, b, seed) => {
        expect(bootstrapCI(a, b, ratio, seed, 200)).toEqual(referenceCI(a, b, ratio, seed, 200));
      }),
      { numRuns: 300 },
    );
  });
});
