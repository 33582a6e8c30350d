import { describe, expect, it } from 'vitest';
import { lookupTable, nullRowTemplate, ownCell, setCell } from '../../src/core/cells.js';
import { FieldMapBuilder } from '../../src/core/records.js';

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

  it('keeps a field a log names __proto__ in a record, with its line', () => {
    const b = new FieldMapBuilder();
    expect(b.set('__proto__', 3, 7)).toBe(true);
    expect(b.set('__proto__', 4, 8)).toBe(false);
    expect(Object.getPrototypeOf(b.fields)).toBe(Object.prototype);
    expect(JSON.stringify([b.fields, b.lines])).toBe('[{"__proto__":3},{"__proto__":7}]');
  });

  it('reads only cells a row has itself, and looks up only keys a table has', () => {
    const row: Record<string, unknown> = { a: 1 };
    expect([ownCell(row, 'a'), ownCell(row, 'constructor'), ownCell(row, '__proto__'), ownCell(row, 'toString')]).toEqual([1, undefined, undefined, undefined]);
    const table = lookupTable({ known: 'k' });
    expect([table.known, table.constructor, table.__proto__, table.toString]).toEqual(['k', undefined, undefined, undefined]);
    expect(Object.isFrozen(table)).toBe(true);
  });
});
