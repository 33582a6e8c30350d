import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { RelPath } from '../../../src/core/types.js';
import { keyLines, parseJsonDocuments } from '../../../grammars/_shared/json/index.js';
import { parseStrictJsonLines } from '../../../grammars/_shared/json/fast-path.js';

const path = 'x.jsonl' as RelPath;

describe('parseStrictJsonLines', () => {
  it('gives the documents, lines and key lines of JSON Lines', () => {
    const docs = parseStrictJsonLines(['{"a":1,"b":{"c":[{"d":-0.5}]}}', '', '  {"e":"f\\"g"}']);
    expect(docs?.map((d) => [d.value, d.line])).toEqual([
      [{ a: 1, b: { c: [{ d: -0.5 }] } }, 1],
      [{ e: 'f"g' }, 3],
    ]);
    const first = docs?.[0]?.value as { b: { c: { d: number }[] } };
    expect(keyLines.get(first)).toEqual({ a: 1, b: 1 });
    expect(keyLines.get(first.b.c[0] as object)).toEqual({ d: 1 });
    expect(keyLines.get(docs?.[1]?.value as object)).toEqual({ e: 3 });
  });

  it('leaves to the grammar what strict JSON.parse would read differently or not at all', () => {
    expect(parseStrictJsonLines(['{"a":1,"a":2}'])).toBeNull(); // the grammar keeps the first value
    expect(parseStrictJsonLines(['{"a":"x:","a":2}'])).toBeNull();
    expect(parseStrictJsonLines(['{"a":NaN}'])).toBeNull();
    expect(parseStrictJsonLines(['{', '"a": 1', '}'])).toBeNull();
    expect(parseStrictJsonLines(['{"a":1}', '{"b":'])).toBeNull();
    expect(parseStrictJsonLines(['{"__proto__":{"x":1}}'])).toBeNull();
  });

  it('agrees with the grammar on a duplicated key', () => {
    const docs = parseJsonDocuments({ path, lines: ['{"a":1,"a":2,"b":"k:"}'] }, new DiagnosticCollector());
    expect(docs.map((d) => d.value)).toEqual([{ a: 1, b: 'k:' }]);
  });
});
