import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { RelPath } from '../../../src/core/types.js';
import { type JsonValue, GRAMMAR_MAX_CHARS, keyLines, parseJsonDocuments, parseWithGrammar } from '../../../grammars/_shared/json/index.js';
import { parseStrictJsonLines, parseWholeJson } from '../../../grammars/_shared/json/fast-path.js';
import { grammar as vllmResultGrammar } from '../../../grammars/vllm-bench-result-json/index.js';

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

  it("reads Python's NaN and Infinity as the grammar does, and leaves them alone inside strings", () => {
    const docs = parseStrictJsonLines(['{"a":NaN,"b":[Infinity, -Infinity],"c":"NaN, Infinity]"}']);
    expect(docs?.map((d) => d.value)).toEqual([{ a: null, b: [Infinity, -Infinity], c: 'NaN, Infinity]' }]);
  });

  it('leaves to the grammar what strict JSON.parse would read differently or not at all', () => {
    expect(parseStrictJsonLines(['{"a":1,"a":2}'])).toBeNull(); // the grammar keeps the first value
    expect(parseStrictJsonLines(['{"a":"x:","a":2}'])).toBeNull();
    expect(parseStrictJsonLines(['{"a":1NaN}'])).toBeNull();
    expect(parseStrictJsonLines(['{', '"a": 1', '}'])).toBeNull();
    expect(parseStrictJsonLines(['{"a":1}', '{"b":'])).toBeNull();
    expect(parseStrictJsonLines(['{"__proto__":{"x":1}}'])).toBeNull();
    expect(parseStrictJsonLines(['{"a":1}', '42'])).toBeNull(); // a stray value between documents
  });

  it('keeps a key named __proto__ as a key: a log cannot give a document a prototype', () => {
    const text = '{"model_id":"m","__proto__":{"label":"evil","max_concurrency":999},"max_concurrency":4,"completed":10}';
    const [doc] = parseJsonDocuments({ path, lines: [text] }, new DiagnosticCollector());
    const value = doc?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['model_id', '__proto__', 'max_concurrency', 'completed']);
    expect(value.label).toBeUndefined();
    expect(JSON.stringify(keyLines.get(value))).toBe('{"model_id":1,"__proto__":1,"max_concurrency":1,"completed":1}');
    const runs = vllmResultGrammar.parse({ path, lines: [text] }, new DiagnosticCollector());
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run?.kind === 'run' && [run.label, run.fields.max_concurrency, Object.getPrototypeOf(run.fields) === Object.prototype]).toEqual([null, 4, true]);
  });

  it('agrees with the grammar on a duplicated key', () => {
    const docs = parseJsonDocuments({ path, lines: ['{"a":1,"a":2,"b":"k:"}'] }, new DiagnosticCollector());
    expect(docs.map((d) => d.value)).toEqual([{ a: 1, b: 'k:' }]);
  });
});

describe('parseWholeJson', () => {
  it('gives a pretty-printed document with the line of every key', () => {
    const docs = parseWholeJson(['', '{', '  "a": 1,', '  "b": {', '    "c": NaN', '  },', '  "d": [', '    {"e": true}', '  ]', '}', '']);
    expect(docs?.map((d) => [d.value, d.line])).toEqual([[{ a: 1, b: { c: null }, d: [{ e: true }] }, 2]]);
    const value = docs?.[0]?.value as { b: object; d: object[] };
    expect(keyLines.get(value)).toEqual({ a: 3, b: 4, d: 7 });
    expect(keyLines.get(value.b)).toEqual({ c: 5 });
    expect(keyLines.get(value.d[0] as object)).toEqual({ e: 8 });
  });

  it('leaves several documents to the grammar', () => {
    expect(parseWholeJson(['{"a": 1}', '{', '"b": 2}'])).toBeNull();
  });
});

/** JSON text as tools write it: any spacing, Python's constants, keys repeated or not. */
const ws = (newlines: boolean) => fc.constantFrom('', ' ', '  ', '\t', ...(newlines ? ['\n', '\n  ', '\r\n'] : []));
const scalarText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.integer().map(String),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('true', 'false', 'null', 'NaN', 'Infinity', '-Infinity', '"a\\u0062"', '"\\"NaN\\""', '"x, NaN]"'),
);
const keyText = fc.constantFrom('"a"', '"b"', '"model_id"', '"a\\u0062"', '"k:"', '"with \\"quote\\""', '""', '"1"', '"__proto__"');

function jsonText(newlines: boolean, uniqueKeys: boolean): fc.Arbitrary<string> {
  const s = ws(newlines);
  return fc.letrec<{ value: string; object: string; array: string }>((tie) => {
    const pair = fc.tuple(uniqueKeys ? keyText.filter((k) => k !== '"__proto__"') : keyText, s, s, tie('value'), s);
    const pairs = uniqueKeys ? fc.uniqueArray(pair, { maxLength: 4, selector: ([k]) => k }) : fc.array(pair, { maxLength: 4 });
    return {
      value: fc.oneof({ depthSize: 'small' }, scalarText, tie('object'), tie('array')),
      object: fc.tuple(pairs, s).map(([ps, end]) => `{${ps.map(([k, a, b, v, c]) => `${a}${k}${b}:${v}${c}`).join(',')}${end}}`),
      array: fc.tuple(fc.array(tie('value'), { maxLength: 4 }), s).map(([items, space]) => `[${space}${items.join(`${space},`)}]`),
    };
  }).object;
}

/** Walks two equal values side by side and compares the key lines recorded for each object. */
function sameKeyLines(a: JsonValue, b: JsonValue): void {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return;
  if (!Array.isArray(a)) expect(keyLines.get(b)).toEqual(keyLines.get(a));
  for (const k of Object.keys(a)) sameKeyLines((a as Record<string, JsonValue>)[k] as JsonValue, (b as Record<string, JsonValue>)[k] as JsonValue);
}

function agreesWithGrammar(lines: string[], mustBeFast: boolean): void {
  const grammarSink = new DiagnosticCollector();
  const grammar = parseWithGrammar({ path, lines }, grammarSink);
  const fast = parseStrictJsonLines(lines) ?? parseWholeJson(lines);
  if (mustBeFast) expect(fast).not.toBeNull();
  if (fast === null) return;
  expect(grammarSink.list()).toEqual([]);
  expect(fast.map((d) => [d.value, d.line])).toEqual(grammar.map((d) => [d.value, d.line]));
  fast.forEach((d, i) => sameKeyLines(grammar[i]?.value as JsonValue, d.value));
}

describe('the fast paths and the grammar', () => {
  it('read JSON Lines alike (values, lines, key lines)', () => {
    const docs = fc.array(fc.oneof(jsonText(false, true), fc.constant('')), { minLength: 1, maxLength: 4 });
    fc.assert(fc.property(docs, fc.boolean(), (texts, unique) => agreesWithGrammar(texts.flatMap((t) => t.split('\n')), unique && texts.some((t) => t !== ''))));
    fc.assert(fc.property(fc.array(jsonText(false, false), { minLength: 1, maxLength: 3 }), (texts) => agreesWithGrammar(texts, false)));
  });

  it('read a pretty-printed document alike', () => {
    fc.assert(fc.property(jsonText(true, true), (text) => agreesWithGrammar(text.split('\n'), true)));
    fc.assert(fc.property(jsonText(true, false), (text) => agreesWithGrammar(text.split('\n'), false)));
  });
});

describe('large JSON', () => {
  const detailed = JSON.stringify({ model_id: 'm', completed: 2, itls: Array.from({ length: 120_000 }, (_, i) => [i / 7, i / 3]) });

  it('reads a one-line document of several megabytes (per-request arrays)', () => {
    expect(detailed.length).toBeGreaterThan(2 * GRAMMAR_MAX_CHARS);
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path, lines: [detailed] }, sink);
    expect(docs.map((d) => (d.value as { completed: number }).completed)).toEqual([2]);
    expect(sink.list()).toEqual([]);
  });

  it('skips a document nested too deep for the parser, and keeps the others (a stack overflow cost the file)', () => {
    const sink = new DiagnosticCollector();
    const deep = `{"a": ${'['.repeat(6000)}${']'.repeat(6000)}}`;
    const docs = parseJsonDocuments({ path, lines: ['{"a": 0}', deep, '{"a": 2}'] }, sink);
    expect(docs.map((d) => [d.value, d.line])).toEqual([
      [{ a: 0 }, 1],
      [{ a: 2 }, 3],
    ]);
    expect(sink.list().map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual(['2 json/too-deep JSON nested 6001 levels deep here: deeper than any result, skipped']);
  });

  it('starts over at the next line of JSON Lines whose line was cut, wherever it was cut', () => {
    // (cut after `[1,` it cannot be told from an array's next object, and is read as one)
    for (const cut of ['{"a": 1, "b":', '{"a": 1, "b"', '{"a": 1,', '{"a": [1, 2', '{"a": "x']) {
      const sink = new DiagnosticCollector();
      const docs = parseJsonDocuments({ path, lines: ['{"a": 0}', cut, '{"a": 2}', '{"a": 3}'] }, sink);
      expect(docs.map((d) => [d.value, d.line]), cut).toEqual([
        [{ a: 0 }, 1],
        [{ a: 2 }, 3],
        [{ a: 3 }, 4],
      ]);
      expect(sink.list().map((d) => `${d.line} ${d.code}`), cut).toEqual(['2 json/syntax']);
    }
    // an array's objects may start at column 1: printed with no indent, or one a line
    const flat = ['{', '"a": [', '{', '"b": 1', '},', '{', '"b": 2', '}', ']', '}'];
    expect(parseJsonDocuments({ path, lines: flat }, new DiagnosticCollector()).map((d) => d.value)).toEqual([{ a: [{ b: 1 }, { b: 2 }] }]);
    expect(parseWithGrammar({ path, lines: flat }, new DiagnosticCollector()).map((d) => d.value)).toEqual([{ a: [{ b: 1 }, { b: 2 }] }]);
  });

  it('reads every document of large JSON made of pretty-printed documents one after another (cat *.json), around a cut one', () => {
    const doc = (i: number) => JSON.stringify({ model_id: 'm', completed: i, note: 'a "quoted" } brace', nested: { ttfts: [1, 2] } }, null, 2).split('\n');
    const lines: string[] = [];
    const starts: number[] = [];
    for (let i = 0; lines.join('\n').length <= GRAMMAR_MAX_CHARS; i++) {
      starts.push(lines.length + 1);
      lines.push(...doc(i));
    }
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path, lines }, sink);
    expect(docs.map((d) => d.line)).toEqual(starts);
    expect(docs.map((d) => (d.value as { completed: number }).completed)).toEqual(starts.map((_, i) => i));
    expect(keyLines.get(docs[1]?.value as object)).toMatchObject({ model_id: (starts[1] ?? 0) + 1, nested: (starts[1] ?? 0) + 4 });
    expect(sink.list()).toEqual([]);
    // a document cut short in the middle: the documents after it are read as JSON Lines would be
    // (none here: pretty-printed), and its lines are reported, never a crash or a hang
    const cut = [...lines.slice(0, starts[2] ?? 0), '{', '  "model_id": "m",', ...lines.slice((starts[2] ?? 0) - 1)];
    const after = parseJsonDocuments({ path, lines: cut }, new DiagnosticCollector());
    expect(after.slice(0, 2).map((d) => d.line)).toEqual(starts.slice(0, 2));
  });

  it('keeps the whole documents of large JSON Lines around a cut one, and says which line it skipped', () => {
    const good = '{"model_id":"m","completed":1}';
    const lines = [detailed, good, detailed.slice(0, 1000), good];
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path, lines }, sink);
    expect(docs.map((d) => d.line)).toEqual([1, 2, 4]);
    expect(sink.list().map((d) => [d.code, d.line, d.message])).toEqual([
      ['json/too-large-to-recover', 3, expect.stringMatching(/^1 line of this \d+(\.\d)? MB JSON is not a whole document/)],
    ]);
  });

  it('reads documents written back to back on one line (files without a final newline, concatenated), a broken one said', () => {
    const results = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ model_id: 'm', completed: i, note: 'a "}{" inside' }));
    expect(results.join('').length).toBeGreaterThan(GRAMMAR_MAX_CHARS);
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path, lines: [results.join(''), '{"model_id":"m","completed":-1}'] }, sink);
    expect(docs.map((d) => (d.value as { completed: number }).completed)).toEqual([...results.keys(), -1]);
    expect(docs[1]?.line).toBe(1);
    expect(sink.list()).toEqual([]);
    const broken = parseJsonDocuments({ path, lines: [[results[0], '{"model_id":', results[2]].join('') + results.slice(3).join('')] }, sink);
    // a cut document leaves its brackets open: the documents after it on its line go with it (said)
    expect(broken.map((d) => (d.value as { completed: number }).completed)).toEqual([0]);
    expect(sink.list().map((d) => [d.code, d.line])).toEqual([['json/too-large-to-recover', 1]]);
  });
});

describe('badly damaged JSON', () => {
  it('is read by the grammar up to a point, then for whole documents only, with the rest counted in one warning', () => {
    const cut = (n: number) => Array.from({ length: n }, (_, i) => `{"completed": ${i}, "duration":`);
    const lines = ['{"completed": 1, "duration": 2}', ...cut(150), '{"completed": 3, "duration": NaN}', ...cut(30), '{"completed": 4, "x": {"y": 1}}', '{"a": 1, "a": 2}', '{"z": 1'];
    const sink = new DiagnosticCollector();
    const docs = parseWithGrammar({ path, lines }, sink);
    expect(docs.map((d) => [d.value, d.line])).toEqual([
      [{ completed: 1, duration: 2 }, 1],
      [{ completed: 3, duration: null }, 152],
      [{ completed: 4, x: { y: 1 } }, 183],
    ]);
    expect(keyLines.get(docs[2]?.value as object)).toEqual({ completed: 183, x: 183 });
    const codes = sink.list().map((d) => [d.code, d.line, d.message]);
    expect(codes.filter(([code]) => code === 'json/syntax')).toHaveLength(5);
    // past the grammar's 100 failures: the other 50 + 30 cut lines, the duplicated key (the grammar's
    // whole-document reading would take its first value) and the cut last line
    expect(codes.filter(([code]) => code === 'json/too-damaged')).toEqual([['json/too-damaged', 102, '82 more damaged JSON parts (first here) skipped: past 100 that could not be read, only whole documents are read']]);
  });
});

describe('a pretty-printed document that lost a line', () => {
  const doc = ['{', '  "model_id": "m",', '  "ttft": {', '    "mean": 0.1,', '    "p99": 0.3', '  },', '  "e2el": {', '    "mean": 2.5,', '    "p99": 4.1', '  },', '  "completed": 10', '}'];
  const read = (lines: readonly string[]) => {
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path, lines }, sink);
    return { values: docs.map((d) => d.value), diagnostics: sink.list().map((d) => [d.code, d.line, d.severity]) };
  };

  it('that opened an object: the document ends early, and the bracket left over is a warning', () => {
    // `"e2el": {` gone: its mean and p99 join the document's top level, which then closes at its `}`
    const { values, diagnostics } = read(doc.filter((_, i) => i !== 6));
    expect(values[0]).toEqual({ model_id: 'm', ttft: { mean: 0.1, p99: 0.3 }, mean: 2.5, p99: 4.1 });
    expect(diagnostics).toContainEqual(['json/stray-bracket', 11, 'warning']);
  });

  it('or had a key twice (a hand merge): each repeated key is a warning, the first value kept', () => {
    const { values, diagnostics } = read([...doc.slice(0, 10), '  "completed": 10,', '  "ttft": {"mean": 9},', '  "completed": 12', '}']);
    expect(values[0]).toEqual({ model_id: 'm', ttft: { mean: 0.1, p99: 0.3 }, e2el: { mean: 2.5, p99: 4.1 }, completed: 10 });
    expect(diagnostics).toEqual([
      ['parse/repeated-key', 12, 'warning'],
      ['parse/repeated-key', 13, 'warning'],
    ]);
  });

  it('leaves whole documents and text between them as they were: no warning', () => {
    expect(read(doc).diagnostics).toEqual([]);
    expect(read(['$ cat a.json b.json', ...doc, '$ echo done', ...doc]).diagnostics).toEqual([['parse/unrecognized-lines', 1, 'info']]);
  });
});
