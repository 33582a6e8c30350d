import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonSkimPaths, SkimPaths, skimJsonBytes } from '../../src/ingest/json-skim.js';
import { skimKernel } from '../../src/ingest/skim-kernel.js';

const PATHS = SkimPaths.of(['ttfts', 'itls', 'generated_texts', 'benchmarks[].requests']) as SkimPaths;

/** Both walks over skimmed values: in JavaScript, and the WebAssembly kernel's (what a file's skim uses). */
const WALKS = [
  ['JavaScript', false],
  ['kernel', true],
] as const;

describe.each(WALKS)('JSON skim (%s walk)', (_, kernel) => {
  /** The skim of `text` in one piece, as text (null: to be read whole). */
  const skim = (text: string, paths: SkimPaths = PATHS): string | null => skimJsonBytes([Buffer.from(text)], paths, kernel)?.toString() ?? null;

  it('leaves out the arrays and objects at the listed paths, as null', () => {
    expect(skim('{"a":1,"itls":[[0.1,0.2],[0.3]],"b":"x","ttfts":[1,2],"c":[3]}')).toBe('{"a":1,"itls":null,"b":"x","ttfts":null,"c":[3]}');
    expect(skim('{"generated_texts":["a \\"]} text",{"k":"}"}],"n":2}')).toBe('{"generated_texts":null,"n":2}');
  });

  it('keeps strings, numbers and literals at those paths, and the same keys elsewhere', () => {
    expect(skim('{"itls":null,"ttfts":"x","generated_texts":3}')).toBe('{"itls":null,"ttfts":"x","generated_texts":3}');
    // only a top-level document's own members: the grammar may read a nested `itls`
    expect(skim('{"detail":{"itls":[1]},"list":[{"itls":[2]}]}')).toBe('{"detail":{"itls":[1]},"list":[{"itls":[2]}]}');
    // a key's name inside a string value is not a key
    expect(skim('{"note":"\\"itls\\": [1]","itls":[1]}')).toBe('{"note":"\\"itls\\": [1]","itls":null}');
    // nor is a key written with an escape compared
    expect(skim('{"it\\u006cs":[1]}')).toBe('{"it\\u006cs":[1]}');
  });

  it('follows `[]` into every element of an array', () => {
    const text = '{"benchmarks":[{"requests":{"successful":[{"id":1}]},"metrics":{"m":1}},{"metrics":{},"requests":[]}],"requests":[1]}';
    expect(skim(text)).toBe('{"benchmarks":[{"requests":null,"metrics":{"m":1}},{"metrics":{},"requests":null}],"requests":[1]}');
  });

  it('keeps every line break of what it leaves out, so lines keep their numbers', () => {
    const text = JSON.stringify({ a: 1, itls: [[1, 2], [3]], b: 2 }, null, 2).replaceAll('\n', '\r\n');
    const out = skim(text) as string;
    expect(out.split('\n')).toHaveLength(text.split('\n').length);
    expect(JSON.parse(out)).toEqual({ a: 1, itls: null, b: 2 });
    expect(out.split('\n').findIndex((l) => l.includes('"b"'))).toBe(text.split('\n').findIndex((l) => l.includes('"b"')));
  });

  it('skims every document of JSON Lines and appended documents', () => {
    expect(skim('{"itls":[1]}\n{"itls":[2],"x":1}\n\n{"a":0}{"ttfts":[3]}\n')).toBe('{"itls":null}\n{"itls":null,"x":1}\n\n{"a":0}{"ttfts":null}\n');
  });

  it('gives the same bytes however the file is cut into chunks', () => {
    const doc = fc.record({
      a: fc.double({ noNaN: true }),
      itls: fc.array(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }))),
      generated_texts: fc.array(fc.string({ unit: 'binary' })),
      s: fc.string({ unit: 'binary' }),
    });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), fc.constantFrom(undefined, 2), fc.array(fc.nat(), { maxLength: 8 }), (docs, indent, cuts) => {
        const bytes = Buffer.from(`${docs.map((d) => JSON.stringify(d, null, indent)).join('\n')}\n`);
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
        const pieces = [0, ...at].map((from, i) => bytes.subarray(from, at[i] ?? bytes.length));
        const whole = skimJsonBytes([bytes], PATHS, kernel);
        expect(whole).not.toBeNull();
        expect(skimJsonBytes(pieces, PATHS, kernel)?.equals(whole as Buffer)).toBe(true);
        // and what is left is the documents with those values as null
        const left = (whole as Buffer).toString().trim().split('\n\n').join('\n');
        const expected = docs.map((d) => ({ ...(JSON.parse(JSON.stringify(d)) as object), itls: null, generated_texts: null }));
        if (indent === undefined) expect(left.split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(expected);
      }),
    );
  });

  it('asks for a whole read where cleaning lines or recovering documents would differ', () => {
    // a NUL (a sparse or damaged file), an ANSI colour (its `[` would open an array), a `\r` redraw
    expect(skim('{"itls":[1,2\0\0\0')).toBeNull();
    expect(skim('{"itls":[1,\x1b[31m2]}')).toBeNull();
    expect(skim('{"a":"x\ry","itls":[1]}')).toBeNull();
    expect(skimJsonBytes([Buffer.from('{"itls":[1]}\r'), Buffer.from('x')], PATHS, kernel)).toBeNull();
    expect(skimJsonBytes([Buffer.from('{"itls":[1]}\r'), Buffer.from('\n')], PATHS, kernel)?.toString()).toBe('{"itls":null}\r\n');
    // an empty piece between them changes nothing
    expect(skimJsonBytes([Buffer.from('{"itls":[1]}\r'), Buffer.alloc(0), Buffer.from('x')], PATHS, kernel)).toBeNull();
    // a last line's `\r` is dropped by cleaning like a CRLF's
    expect(skim('{"itls":[1]}\r')).toBe('{"itls":null}\r');
    // JSON Lines whose writer was stopped mid-line: the reader takes the next line as a new document
    expect(skim('{"a":1,"itls":[1,2\n{"a":2,"itls":[3]}\n')).toBeNull();
    expect(skim('{"a":1,"generated_texts":["cut\n{"a":2}\n')).toBeNull();
    expect(skim('{"a":"cut\n{"a":2}\n')).toBeNull();
    expect(skim('{"a":{"b":1,\n{"a":2}\n')).toBeNull();
    expect(skim('{"a":1,"itls":\n{"a":2,"itls":[1]}\n')).toBeNull();
  });

  it('keeps what comes before a value cut by the end of the file', () => {
    expect(skim('{"a":1,"itls":[1,2,3')).toBe('{"a":1,"itls":');
  });

  it('keeps the line breaks of a pretty-printed value left out, and stops at a `{` opening a line in it', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `    ${i / 7},`).join('\n');
    expect(skim(`{\n  "ttfts": [\n${lines}\n    1\n  ],\n  "a": 1\n}\n`)).toBe(`{\n  "ttfts": null${'\n'.repeat(42)},\n  "a": 1\n}\n`);
    expect(skim(`{"ttfts": [\n${lines}\n{"a": 2}\n`)).toBeNull();
    // a value longer than the kernel's chunk, walked across chunks
    const long = `{"itls":[${Array.from({ length: 300_000 }, (_, i) => `[${i % 13}.25,\n${i}]`).join(',')}],"a":1}`;
    expect(skim(long)).toBe(`{"itls":null${'\n'.repeat(300_000)},"a":1}`);
  });
});

describe('JSON skim', () => {
  it('walks with the WebAssembly kernel on this platform', () => {
    expect(skimKernel()).not.toBeNull();
  });

  it('gives the same bytes with either walk, whatever the bytes', () => {
    // the bytes a walk stops at, and some it passes, in any order
    const byte = fc.constantFrom(...'"\\[]{}\n\r\x1b\0 ,:1.e-atn'.split('').map((ch) => ch.charCodeAt(0)));
    const text = fc.array(fc.oneof(fc.constantFrom('{"itls":[', '{"generated_texts":["', '"]', ']}', '\n'), fc.array(byte, { maxLength: 40 }).map((b) => Buffer.from(b).toString('latin1'))), { maxLength: 30 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 4 }), (parts, cuts) => {
        const bytes = Buffer.from(parts.join(''), 'latin1');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
        const pieces = [0, ...at].map((from, i) => bytes.subarray(from, at[i] ?? bytes.length));
        const byBytes = skimJsonBytes(pieces, PATHS, false);
        const byKernel = skimJsonBytes(pieces, PATHS, true);
        expect(byKernel === null ? null : byKernel.toString('latin1')).toBe(byBytes === null ? null : byBytes.toString('latin1'));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves out only what every claiming grammar lists', () => {
    expect(commonSkimPaths([['a', 'b'], ['b', 'c']])).toEqual(['b']);
    expect(commonSkimPaths([['a'], undefined])).toBeNull();
    expect(commonSkimPaths([['a'], ['b']])).toBeNull();
    expect(commonSkimPaths([])).toBeNull();
    expect(SkimPaths.of([])).toBeNull();
  });
});
