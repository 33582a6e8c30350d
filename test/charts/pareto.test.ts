import { describe, expect, it } from 'vitest';
import { paretoFrontier } from '../../src/charts/pareto.js';
import { parseSeconds } from '../../src/charts/time-bins.js';

describe('pareto frontier', () => {
  it('keeps exactly the points no other point beats on both axes, in x order', () => {
    const pts = [
      { x: 10, y: 100 },
      { x: 20, y: 80 },
      { x: 15, y: 70 },
      { x: 30, y: 30 },
      { x: 5, y: 90 },
      { x: 30, y: 20 },
    ];
    expect(paretoFrontier(pts)).toEqual([
      { x: 10, y: 100 },
      { x: 20, y: 80 },
      { x: 30, y: 30 },
    ]);
  });
});

describe('timeline time parsing', () => {
  it('reads ISO-like stamps as UTC seconds, independent of the time zone', () => {
    expect((parseSeconds('2026-03-01T10:00:05') ?? NaN) - (parseSeconds('2026-03-01 10:00:00') ?? NaN)).toBe(5);
    expect(parseSeconds('2026-03-01T10:00:00.5')).toBe(Date.UTC(2026, 2, 1, 10) / 1000 + 0.5);
    expect(parseSeconds('11-02 10:01:11')).toBeNull();
    expect(parseSeconds(null)).toBeNull();
  });
});
