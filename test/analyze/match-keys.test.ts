import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldValue } from '../../src/core/types.js';
import { differingKeys, matchingRows } from '../../src/analyze/match-keys.js';

type Row = Record<string, FieldValue>;

const KEYS = ['model', 'tp', 'dataset', 'request_rate', 'draft_model'];
// values that compare equal without being equal: numbers and numeric strings, `inf`, model paths and ids, null and "null"
const value = fc.constantFrom<FieldValue>(null, 4, '4', ' 4 ', 4.0, 'inf', Infinity, 'Infinity', 'null', 'random', 'org/Llama-3-8B', 'llama-3-8b', '/models/org/Llama-3-8B/', 'other/Llama-3-8B', true, 'true');
const row = fc.record(Object.fromEntries(KEYS.map((k) => [k, value])), { requiredKeys: [] }) as fc.Arbitrary<Row>;

describe('matchingRows', () => {
  it('finds, in their order, exactly the rows differingKeys finds no difference with', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), row, fc.subarray(KEYS), (rows, probe, keys) => {
        const expected = rows.filter((b) => differingKeys(probe, b, keys).length === 0);
        expect(matchingRows(rows, keys)(probe)).toEqual(expected);
        for (const r of rows) expect(matchingRows(rows, keys)(r)).toEqual(rows.filter((b) => differingKeys(r, b, keys).length === 0));
      }),
      { numRuns: 500 },
    );
  });
});
