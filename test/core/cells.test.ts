import { describe, expect, it } from 'vitest';
import { nullRowTemplate, setCell } from '../../src/core/cells.js';

describe('cells named by logs', () => {
  it('sets __proto__ as a cell, never as the prototype', () => {
    const row: Record<string, unknown> = {};
    setCell(row, '__proto__', { polluted: true });
    setCell(row, 'a', 1);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(row)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('makes a null row of the columns, in their order, whose copies keep them', () => {
    const copy = { ...nullRowTemplate(['b', '__proto__', 'a']) };
    expect(Object.keys(copy)).toEqual(['b', '__proto__', 'a']);
    expect(Object.values(copy)).toEqual([null, null, null]);
  });
});
