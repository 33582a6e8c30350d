import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNumber, readNumberByPattern } from '../../src/parse/values.js';

describe('readNumber', () => {
  it('reads values as logs print them', () => {
    expect(readNumber('0.49')).toEqual({ value: 0.49, ok: true, rest: '' });
    expect(readNumber('-0')).toEqual({ value: 0, ok: true, rest: '' });
    expect(readNumber(' 12.5 ms')).toEqual({ value: 12.5, ok: true, rest: 'ms' });
    expect(readNumber('1,234')).toEqual({ value: 1, ok: true, rest: ',234' });
    expect(readNumber('1,234', { thousands: true })).toEqual({ value: 1234, ok: true, rest: '' });
    expect(readNumber('N/A')).toEqual({ value: null, ok: true, rest: '' });
    expect(readNumber('-inf')).toEqual({ value: -Infinity, ok: true, rest: '' });
    expect(readNumber('.')).toEqual({ value: null, ok: false, rest: '.' });
    expect(readNumber('9'.repeat(400))).toEqual({ value: null, ok: false, rest: '9'.repeat(400) });
  });

  it('reads plain decimals as its expressions do (the shortcut changes nothing)', () => {
    const decimalish = fc.stringMatching(/^[-+]?[0-9.]{0,12}[%a-z ,-]?$/);
    const anything = fc.oneof(decimalish, fc.string({ maxLength: 8 }), fc.double().map(String), fc.integer().map(String));
    fc.assert(
      fc.property(anything, fc.boolean(), (text, thousands) => {
        expect(readNumber(text, { thousands })).toEqual(readNumberByPattern(text, { thousands }));
      }),
      { numRuns: 5000 },
    );
  });
});
