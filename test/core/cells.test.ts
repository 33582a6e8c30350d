import { describe, expect, it } from 'vitest';
import { lookupTable, nullRowTemplate, ownCell, setCell } from '../../src/core/cells.js';
import { compactFieldMap, FieldMapBuilder } from '../../src/core/records.js';

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

  it('compacts a record\'s values into copies with the same cells in the same order, __proto__ one of them', () => {
    const b = new FieldMapBuilder();
    const columns = ['zeta', '__proto__', 'alpha', ...Array.from({ length: 30 }, (_, i) => `column_${i}`)];
    columns.forEach((c, i) => b.set(c, i === 0 ? 'text' : i, 100 + i));
    const compact = compactFieldMap(b);
    expect(compact.fields).not.toBe(b.fields);
    expect(Object.getPrototypeOf(compact.fields)).toBe(Object.prototype);
    expect(Object.keys(compact.fields)).toEqual(columns);
    expect(Object.keys(compact.lines)).toEqual(columns);
    expect(JSON.stringify(compact)).toBe(JSON.stringify({ fields: b.fields, lines: b.lines }));
  });

  it('reads only cells a row has itself, and looks up only keys a table has', () => {
    const row: Record<string, unknown> = { a: 1 };
    expect([ownCell(row, 'a'), ownCell(row, 'constructor'), ownCell(row, '__proto__'), ownCell(row, 'toString')]).toEqual([1, undefined, undefined, undefined]);
    const table = lookupTable({ known: 'k' });
    expect([table.known, table.constructor, table.__proto__, table.toString]).toEqual(['k', undefined, undefined, undefined]);
    expect(Object.isFrozen(table)).toBe(true);
  });
});
