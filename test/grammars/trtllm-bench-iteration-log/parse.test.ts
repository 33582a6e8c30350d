import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/trtllm-bench-iteration-log/index.js';
import { parsePythonLiteral } from '../../../grammars/trtllm-bench-iteration-log/python-literal.js';
import { grammar as metricsJson } from '../../../grammars/trtllm-serve-metrics-json/index.js';
import { NOT_MINE } from '../../../src/core/grammar.js';
import { seriesEntries } from '../../../src/core/timeline-series.js';
import { asRelPath } from '../../../src/core/types.js';
import { processFile } from '../../../src/pipeline/process-file.js';
import { runGrammar } from '../../helpers/grammar-run.js';

/** One iteration as trtllm-bench's IterationWriter prints it: `f"{message}\n"` of a dict. */
function statsLine(iter: number, used: number, active: number, queued: number): string {
  return (
    `{'cpuMemUsage': 0, 'gpuMemUsage': 1000, 'inflightBatchingStats': {'avgNumDecodedTokensPerIter': 1.0, 'microBatchId': 0, ` +
    `'numContextRequests': 1, 'numCtxTokens': 64, 'numGenRequests': ${active - 1}, 'numPausedRequests': 0, 'numScheduledRequests': ${active}}, ` +
    `'iter': ${iter}, 'iterLatencyMS': 12.5, 'kvCacheStats': {'maxNumBlocks': 400, 'usedNumBlocks': ${used}, 'cacheHitRate': 0.0}, ` +
    `'numActiveRequests': ${active}, 'numQueuedRequests': ${queued}, 'specDecodingStats': None, 'staticBatchingStats': None, ` +
    `'timestamp': '11-20-2025 14:02:${String(10 + (iter % 50)).padStart(2, '0')}.000001'}`
  );
}

const head = (text: string) => ({ path: asRelPath('iterations.log'), head: text });

describe('parsePythonLiteral', () => {
  it('reads what repr() prints: quotes, escapes, True/False/None, tuples, exponents', () => {
    const r = parsePythonLiteral(`{'a': 'it\\'s', "b": "x'y", 'c': (1,), 'd': [True, False, None], 'e': -1.5e-05, 'f': '\\x41\\u00e9\\n', 3: -inf}`);
    expect(r).toEqual({ ok: true, value: { a: "it's", b: "x'y", c: [1], d: [true, false, null], e: -1.5e-5, f: 'Aé\n', 3: Number.NEGATIVE_INFINITY } });
  });

  it('says where a cut line stops', () => {
    const text = "{'iter': 3, 'kvCacheStats': {'maxNumBl";
    const r = parsePythonLiteral(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.at).toBe(text.length);
  });

  it('rejects trailing text, unknown words and deep nesting without throwing', () => {
    expect(parsePythonLiteral("{'a': 1} extra").ok).toBe(false);
    expect(parsePythonLiteral("{'a': array([1])}").ok).toBe(false);
    expect(parsePythonLiteral(`${'['.repeat(100)}${']'.repeat(100)}`).ok).toBe(false);
    expect(parsePythonLiteral('').ok).toBe(false);
  });

  it('keeps a key named __proto__ as a key', () => {
    const r = parsePythonLiteral("{'__proto__': 1}");
    expect(r.ok && Object.hasOwn(r.value as object, '__proto__')).toBe(true);
  });
});

describe('detect', () => {
  it('claims Python dicts of iteration statistics', () => {
    expect(grammar.detect(head(`${statsLine(0, 10, 2, 0)}\n`)).score).toBeGreaterThan(0.5);
  });

  it('leaves the JSON layout (/metrics, or JSON lines) to trtllm-serve-metrics-json', () => {
    const json = JSON.stringify({ iter: 0, iterLatencyMS: 1, kvCacheStats: {} });
    expect(grammar.detect(head(json))).toBe(NOT_MINE);
    expect(metricsJson.detect(head(json)).score).toBeGreaterThan(0);
    expect(metricsJson.detect(head(statsLine(0, 10, 2, 0))).score).toBe(0);
  });

  it('does not claim other Python dicts', () => {
    expect(grammar.detect(head("{'model': 'x', 'tp': 2}\n"))).toBe(NOT_MINE);
    expect(grammar.detect(head("[TRT-LLM] [I] {'iterLatencyMS': 1}"))).toBe(NOT_MINE);
  });
});

describe('parse', () => {
  it('gives one timeline entry a line, as /metrics elements are read', () => {
    const { records, diagnostics } = runGrammar(grammar, [statsLine(0, 40, 2, 3), '', statsLine(1, 100, 4, 1)].join('\n'));
    expect(diagnostics).toEqual([]);
    expect(records).toHaveLength(1);
    const r = records[0];
    if (r?.kind !== 'timeline') throw new Error('expected a timeline');
    const entries = seriesEntries(r.series, asRelPath('t.txt'));
    expect(entries.map((e) => [e.at.line, e.fields.kv_cache_usage, e.fields.running, e.fields.waiting, e.fields.time])).toEqual([
      [1, 0.1, 2, 3, '2025-11-20T14:02:10'],
      [3, 0.25, 4, 1, '2025-11-20T14:02:11'],
    ]);
  });

  it('warns on a cut line and keeps the lines before it', () => {
    const cut = statsLine(1, 50, 2, 0).slice(0, 90);
    const { records, diagnostics } = runGrammar(grammar, `${statsLine(0, 40, 2, 0)}\n${cut}`);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['parse/syntax', 2]]);
    expect(records[0]?.kind === 'timeline' && records[0].series.length).toBe(1);
  });
});

describe('a large log', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-iterlog-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is streamed line by line into one series', () => {
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) lines.push(statsLine(i, i % 400, 1 + (i % 8), i % 3));
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const file = path.join(dir, 'iterations.log');
    writeFileSync(file, text);
    const outcome = processFile(file, asRelPath('iterations.log'));
    expect(outcome.report.formats).toEqual(['trtllm-bench-iteration-log']);
    expect(outcome.report.records).toBe(6000);
    expect(outcome.report.warnings + outcome.report.errors).toBe(0);
  });
});
