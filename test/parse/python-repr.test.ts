import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatNumberDict, parseKeywordArgs, parsePyValue } from '../../src/parse/python-repr.js';
import { expectAgreesWhereItAnswers } from '../helpers/shortcut.js';

describe('Python reprs', () => {
  it('reads dicts, calls and keyword arguments, a key named __proto__ included', () => {
    expect(parsePyValue("{'a': 1, 'b': [2, 'x'], 'c': None, 'a': 3}")).toEqual({ a: 3, b: [2, 'x'], c: null });
    expect(parseKeywordArgs("model='m', tp=2, spec=SpeculativeConfig(method='eagle3')")).toEqual({ model: 'm', tp: 2, spec: { method: 'eagle3' } });
    const dict = parsePyValue("{'__proto__': 1}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(dict)).toBe(Object.prototype);
    expect(JSON.stringify(dict)).toBe('{"__proto__":1}');
    expect(JSON.stringify(parseKeywordArgs('__proto__=2'))).toBe('{"__proto__":2}');
  });

  it('keeps a value nested deeper than any repr as its text, and reads on (20,000 levels overflowed the stack)', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const args = parseKeywordArgs(`a=1, b=${deep}, c='x'`);
    expect(args.a).toBe(1);
    expect(args.c).toBe('x');
    let v = args.b;
    for (let level = 0; level < 64; level++) v = (v as unknown[])[0] as typeof v;
    expect(v).toBe(`${'['.repeat(19_936)}${']'.repeat(19_936)}`);
    expect(parsePyValue(`{'k': ${'{'.repeat(5000)}${'}'.repeat(5000)}}`)).toHaveProperty('k');
  });

  it('reads a flat dict of numbers as the general reader does, wherever it answers', () => {
    const key = fc.constantFrom('num_ctx_requests', 'num_ctx_tokens', 'a b', 'x:y', "it's", 'back\\slash', '__proto__', '', 'é');
    const number = fc.oneof(fc.constantFrom('0', '-0', '12', '-3', '2048', '0.5', '1.', '.5', '1e3', '+1', 'None', 'True', "'s'", '1x', '[1]'), fc.double({ noNaN: true }).map(String));
    const separator = fc.constantFrom(', ', ',', ' , ');
    const dict = fc
      .tuple(fc.array(fc.tuple(key, fc.constantFrom(': ', ':', ' : '), number), { maxLength: 6 }), separator, fc.constantFrom('', ' ', ','))
      .map(([pairs, sep, end]) => `{${pairs.map(([k, colon, v]) => `'${k}'${colon}${v}`).join(sep)}${end}}`);
    expectAgreesWhereItAnswers(dict, flatNumberDict, parsePyValue, { numRuns: 3000, minAnswered: 100 });
    expect(flatNumberDict("{'num_ctx_requests': 1, 'num_ctx_tokens': 2048, 'num_generation_tokens': 0}")).toEqual({ num_ctx_requests: 1, num_ctx_tokens: 2048, num_generation_tokens: 0 });
  });
});
