import fc from 'fast-check';
import { expect } from 'vitest';

export interface AgreementOptions {
  readonly numRuns?: number;
  readonly seed?: number;
  /** How many inputs the shortcut must answer for the check to mean something. */
  readonly minAnswered?: number;
}

/**
 * A shortcut (null: "not my shape") agrees with the general reader wherever it answers (same
 * values, same key order, -0 kept apart from 0), and answers often enough for that to mean something.
 */
export function expectAgreesWhereItAnswers<I, T>(inputs: fc.Arbitrary<I>, shortcut: (input: I) => T | null, general: (input: I) => unknown, options: AgreementOptions = {}): void {
  let answered = 0;
  fc.assert(
    fc.property(inputs, (input) => {
      const fast = shortcut(input);
      if (fast === null) return;
      answered++;
      const slow = general(input);
      expect(fast).toEqual(slow);
      expect(signature(fast)).toBe(signature(slow));
    }),
    { numRuns: options.numRuns ?? 4000, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
  expect(answered).toBeGreaterThan(options.minAnswered ?? 200);
}

/** Keys in order and numbers with their sign of zero: what toEqual does not compare. */
function signature(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : Object.is(v, -0) ? '-0' : v));
}
