import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wantsLine } from '../../src/core/grammar.js';
import { anyLiteral, escapeRegExp } from '../../src/core/literals.js';

/** Characters that mean something to a regular expression, and some that do not. */
const unit = fc.constantFrom(...'.*+?^${}()|[]\\/ab"=: é'.split(''));
const literal = fc.string({ unit, minLength: 1, maxLength: 6 });

describe('literals', () => {
  it('anyLiteral answers as a search for each literal does, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 6 }), fc.string({ unit, maxLength: 40 }), (literals, text) => {
        expect(anyLiteral(literals).test(text)).toBe(literals.some((l) => text.includes(l)));
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it('escapeRegExp matches the literal itself', () => {
    fc.assert(fc.property(literal, (l) => new RegExp(`^${escapeRegExp(l)}$`).test(l)), { numRuns: 200, seed: 5 });
  });

  it("wantsLine reads a grammar's anchors as literals", () => {
    const grammar = { anchors: ['[type=', 'Route: /', 'File "', 'a.b'], skip: ['HTTP/1.'] };
    expect(['x [type=int]', 'Route: /v1', 'File "x.py"', 'a.b'].map((l) => wantsLine(grammar, l))).toEqual([true, true, true, true]);
    expect(['x type=int', 'axb', '"POST / HTTP/1.1" File "x"'].map((l) => wantsLine(grammar, l))).toEqual([false, false, false]);
  });
});
