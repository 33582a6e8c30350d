import { describe, expect, it } from 'vitest';
import { closedCutDocument } from '../../../grammars/_shared/json/cut-document.js';
import { GRAMMAR_MAX_CHARS, parseJsonDocuments } from '../../../grammars/_shared/json/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';

/** A saved result as vLLM writes one: its summary, then per-request arrays, a nested object, a string with brackets in it. */
const RESULT = {
  date: '20260112-101530',
  model_id: 'acme/x-8b {draft: [a]}',
  max_concurrency: 32,
  request_throughput: 6.6373,
  p99_ttft_ms: 611.0,
  failed: 0,
  ok: true,
  note: null,
  speculative_config: { method: 'eagle3', num_speculative_tokens: 3, path: 'C:\\models\\"draft"' },
  ttfts: [0.129, 0.914, 1.5e-3],
  itls: [[0.01, 0.02], [0.03]],
  output_lens: [128, 127],
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every member `part` keeps has the value it has in `whole`, an array whole (at `root` a document's own elements, each kept this way). */
function keptFrom(part: Json, whole: Json, root: boolean): boolean {
  if (Array.isArray(part)) {
    if (!Array.isArray(whole)) return false;
    if (!root) return JSON.stringify(part) === JSON.stringify(whole);
    return part.length <= whole.length && part.every((p, i) => keptFrom(p, whole[i] as Json, false));
  }
  if (isObject(part)) {
    if (!isObject(whole)) return false;
    return Object.entries(part).every(([k, v]) => Object.hasOwn(whole, k) && keptFrom(v, whole[k] as Json, false));
  }
  return JSON.stringify(part) === JSON.stringify(whole);
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

describe('json: a document cut short', () => {
  for (const [name, doc] of [
    ['a result, pretty-printed', JSON.stringify(RESULT, null, 2)],
    ['a result, on one line', JSON.stringify(RESULT)],
    ['a list of results (a sweep)', JSON.stringify([RESULT, { ...RESULT, max_concurrency: 64 }], null, 4)],
  ] as const) {
    it(`keeps only values the whole document has, and no array in part, wherever ${name} is cut`, () => {
      const whole = JSON.parse(doc) as Json;
      let read = 0;
      for (let k = 1; k < doc.length; k++) {
        const closed = closedCutDocument(doc.slice(0, k))?.text ?? null;
        if (closed === null) continue;
        read++;
        const part = JSON.parse(closed) as Json;
        expect([k, keptFrom(part, whole, true)]).toEqual([k, true]);
      }
      expect(read).toBeGreaterThan(doc.length / 2);
    });
  }

  it('keeps every member before the cut: the summary of a result cut in its per-request arrays', () => {
    const doc = JSON.stringify(RESULT, null, 2);
    const closed = closedCutDocument(doc.slice(0, doc.indexOf('0.914') + 3))?.text ?? null;
    const { ttfts: _cut, itls: _after, output_lens: _last, ...summary } = RESULT;
    expect(JSON.parse(closed ?? 'null')).toEqual(summary);
  });

  it('takes no number the cut may have shortened, and keeps a string only with its closing quote', () => {
    expect(closedCutDocument('{"a": 1, "p99": 140')?.text).toBe('{"a": 1}');
    expect(closedCutDocument('{"a": 1, "p99": 140.7 ')?.text).toBe('{"a": 1, "p99": 140.7}');
    expect(closedCutDocument('{"a": 1, "model": "acme/x-8')?.text).toBe('{"a": 1}');
    expect(closedCutDocument('{"a": 1, "model": "acme/x-8b"')?.text).toBe('{"a": 1, "model": "acme/x-8b"}');
    expect(closedCutDocument('{"a": 1, "ok": tr')?.text).toBe('{"a": 1}');
  });

  it('is null for a whole document, and for text that is no JSON document', () => {
    expect(closedCutDocument(JSON.stringify(RESULT))).toBeNull();
    expect(closedCutDocument('"just a string')).toBeNull();
    expect(closedCutDocument('{"a" 1, "b": 2, "c": {')).toBeNull();
    // a snippet abbreviated in a write-up, prose after it: no prefix of a JSON document
    expect(closedCutDocument('{"a": 1,\n  "b": [1, 2, ...],\n```\nThe rest is left out.')).toBeNull();
    expect(closedCutDocument('{"a": 1, "b": 2,}\n{"c": 3')).toBeNull();
    expect(closedCutDocument('{"a": 1} {"b": 2')).toBeNull();
    expect(closedCutDocument('[1, 2] [3')).toBeNull();
    expect(closedCutDocument('{"x": 1, "a": {"b":}, "c": 2')).toBeNull();
    expect(closedCutDocument('{"x": 1, "a": [1,], "c": 2')).toBeNull();
    expect(closedCutDocument('{"x": {}, "a": [], "c": [{"d')?.text).toBe('{"x": {}, "a": []}');
  });

  it('reads a file that ends inside its one document, says so at the cut, and keeps the JSON Lines before a cut last line', () => {
    const sink = new DiagnosticCollector();
    const lines = JSON.stringify(RESULT, null, 2).split('\n');
    const cutAt = lines.findIndex((l) => l.includes('0.914'));
    const docs = parseJsonDocuments({ path: asRelPath('r.json'), lines: lines.slice(0, cutAt + 1) }, sink);
    expect(docs.map((d) => (d.value as Record<string, unknown>).request_throughput)).toEqual([6.6373]);
    expect(sink.list().map((d) => [d.code, d.line])).toEqual([['json/cut', 1]]);
    expect(sink.list()[0]?.message).toContain(`cut short at line ${cutAt + 1}`);

    const jsonl = new DiagnosticCollector();
    const rows = [JSON.stringify({ a: 1 }), JSON.stringify({ a: 2 }), JSON.stringify(RESULT).slice(0, 60)];
    const read = parseJsonDocuments({ path: asRelPath('r.jsonl'), lines: rows }, jsonl);
    expect(read.map((d) => [d.line, (d.value as Record<string, unknown>).a ?? (d.value as Record<string, unknown>).date])).toEqual([
      [1, 1],
      [2, 2],
      [3, '20260112-101530'],
    ]);
    expect(jsonl.list().map((d) => [d.code, d.line])).toEqual([['json/cut', 3]]);
  });

  it('reads a one-line document over 1 MiB cut short, as one under it', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ iter: i, iterLatencyMS: 12.5, kvCacheStats: { usedNumBlocks: i } }));
    const text = JSON.stringify(items);
    expect(text.length).toBeGreaterThan(GRAMMAR_MAX_CHARS);
    const sink = new DiagnosticCollector();
    const docs = parseJsonDocuments({ path: asRelPath('metrics.json'), lines: [text.slice(0, text.length - 30)] }, sink);
    const read = docs[0]?.value as { iter: number }[];
    expect([read.length, read.at(-2)?.iter, docs[0]?.cut]).toEqual([20_000, 19_998, true]);
    expect(sink.list().map((d) => d.code)).toEqual(['json/cut']);
  });

  it('gives a saved vLLM result cut in its per-request arrays as a partial run with its summary, and the whole results before it as they are', () => {
    const read = (text: string) => {
      const sink = new DiagnosticCollector();
      const source = fromBytes(Buffer.from(text), asRelPath('result.jsonl'), sink);
      return { runs: source ? parseSource(source, sink).records.flatMap((r) => (r.record.kind === 'run' ? [r.record] : [])) : [], sink };
    };
    const result = { backend: 'vllm', completed: 320, num_prompts: 320, total_input_tokens: 327680, total_output_tokens: 81920, duration: 48.2, output_throughput: 1699.1, mean_ttft_ms: 95.4, ...RESULT };
    const whole = JSON.stringify(result);
    const text = `${whole}\n${whole.slice(0, whole.indexOf('0.914'))}`;
    const { runs, sink } = read(text);
    expect(runs.map((r) => [r.at.line, r.complete, r.fields.output_throughput, r.fields.mean_ttft_ms])).toEqual([
      [1, true, 1699.1, 95.4],
      [2, false, 1699.1, 95.4],
    ]);
    expect(sink.list().map((d) => [d.code, d.line])).toEqual([['json/cut', 2]]);
  });
});
