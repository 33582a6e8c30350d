import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { skimJsonBytes } from '../../src/ingest/json-skim.js';
import { fromBytes } from '../../src/ingest/read.js';
import { claimingGrammarsOf } from '../../src/pipeline/claims.js';
import { parseSource, processFile, processFileWithin, skimPathsOf } from '../../src/pipeline/process-file.js';
import { fixtureCases } from '../helpers/fixtures.js';

const rel = asRelPath('result.json');

/**
 * Records and diagnostics of a file read whole, and of the same file skimmed (null: the skim asks
 * for a whole read, or nothing is skimmable); `leftOut`: the skim removed something.
 */
function bothWays(bytes: Buffer): { whole: unknown; skimmed: unknown; leftOut: boolean } | null {
  const wholeSink = new DiagnosticCollector();
  const source = fromBytes(bytes, rel, wholeSink);
  if (!source) return null;
  const claims = claimingGrammarsOf(source);
  const paths = skimPathsOf(claims);
  if (!paths) return null;
  const kept = skimJsonBytes([bytes], paths);
  if (!kept) return null;
  const whole = parseSource(source, wholeSink);
  const skimSink = new DiagnosticCollector();
  const skimmedSource = fromBytes(kept, rel, skimSink);
  const skimmed = skimmedSource ? parseSource(skimmedSource, skimSink, claims) : null;
  return { whole: { parsed: whole, diagnostics: wholeSink.list() }, skimmed: { parsed: skimmed, diagnostics: skimSink.list() }, leftOut: !kept.equals(bytes) };
}

const number = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.nat());
const perRequest = fc.oneof(fc.array(number), fc.array(fc.array(number), { maxLength: 4 }));
const text = fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', ']', '[', '{', '}', ':', ',', 'é', '\n', '\u2028') });

/** vLLM `--save-result` with `--save-detailed` arrays, keys in a random order, sometimes with a nested `itls`. */
const vllmResult = fc
  .record({
    date: fc.constant('20260101-000000'),
    backend: fc.constant('vllm'),
    model_id: fc.constant('org/model-8b'),
    tokenizer_id: fc.constant('org/model-8b'),
    max_concurrency: fc.nat({ max: 512 }),
    completed: fc.nat({ max: 1000 }),
    request_throughput: number,
    mean_ttft_ms: number,
    ttfts: perRequest,
    itls: perRequest,
    generated_texts: fc.array(text, { maxLength: 4 }),
    errors: fc.array(text, { maxLength: 2 }),
    label: fc.option(text, { nil: null }),
    note: text,
    extra: fc.record({ itls: perRequest, k: text }),
  }, { requiredKeys: ['model_id', 'completed', 'backend'] })
  .chain((o) => fc.shuffledSubarray(Object.keys(o), { minLength: Object.keys(o).length }).map((keys) => Object.fromEntries(keys.map((k) => [k, o[k as keyof typeof o]]))));

/** SGLang `--output-file` lines. */
const sglangResult = fc.record({
  backend: fc.constant('sglang'),
  dataset_name: fc.constantFrom('random', 'sharegpt'),
  total_throughput: number,
  completed: fc.nat({ max: 1000 }),
  max_concurrency: fc.nat({ max: 512 }),
  server_info: fc.record({ tp_size: fc.nat({ max: 8 }), itls: perRequest }),
  input_lens: fc.array(fc.nat()),
  ttfts: perRequest,
  itls: perRequest,
  generated_texts: fc.array(text, { maxLength: 3 }),
  tag: text,
});

/** GuideLLM benchmarks.json, each benchmark with its requests. */
const guidellm = fc.record({
  benchmarks: fc.array(
    fc.record({
      type_: fc.constant('generative_benchmark'),
      config: fc.record({ strategy: fc.record({ type_: fc.constantFrom('constant', 'synchronous'), rate: number }) }),
      metrics: fc.record({ requests_per_second: fc.record({ successful: fc.record({ mean: number }) }), request_totals: fc.record({ successful: fc.nat() }) }),
      requests: fc.record({ successful: fc.array(fc.record({ id: text, itls: perRequest })), errored: fc.array(fc.record({ error: text })) }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

/** Documents laid out as the tools and their users write them: one line each, indented, CRLF, NaN. */
function layout(docs: readonly object[], indent: number | undefined, crlf: boolean, nan: boolean): Buffer {
  let out = `${docs.map((d) => JSON.stringify(d, null, indent)).join('\n')}\n`;
  // Python writes NaN where JSON has no literal: in the per-request arrays and elsewhere
  if (nan) out = out.replaceAll(/(?<=[[,]\s*)0(?=\s*[\],])/g, 'NaN');
  return Buffer.from(crlf ? out.replaceAll('\n', '\r\n') : out);
}

const layouts = (docs: fc.Arbitrary<object[]>) =>
  fc.tuple(docs, fc.constantFrom(undefined, 2, 4), fc.boolean(), fc.boolean()).map(([d, indent, crlf, nan]) => layout(d, indent, crlf, nan));

describe('a large result JSON read without its per-request arrays', () => {
  it('gives the records and diagnostics a whole read gives: vLLM, SGLang, GuideLLM', () => {
    let leftOut = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          layouts(fc.array(vllmResult, { minLength: 1, maxLength: 3 })),
          layouts(fc.array(sglangResult, { minLength: 1, maxLength: 3 })),
          layouts(guidellm.map((g) => [g])),
        ),
        (bytes) => {
          const both = bothWays(bytes);
          if (!both) return;
          if (both.leftOut) leftOut++;
          expect(both.skimmed).toEqual(both.whole);
        },
      ),
      { numRuns: 300 },
    );
    // most inputs must really lose something to the skim, or the comparison says little
    expect(leftOut).toBeGreaterThan(150);
  });

  it('gives what a whole read gives for every JSON fixture it applies to', () => {
    let leftOut = 0;
    for (const c of fixtureCases()) {
      const both = bothWays(readFileSync(c.input));
      if (!both) continue;
      if (both.leftOut) leftOut++;
      expect(both.skimmed, c.input).toEqual(both.whole);
    }
    // fixtures with per-request arrays the skim leaves out (vLLM, SGLang, GuideLLM, the study JSONL)
    expect(leftOut).toBeGreaterThanOrEqual(6);
  });
});

describe('large result JSON files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-skim-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const itls = Array.from({ length: 2000 }, (_, r) => Array.from({ length: 200 }, (__, k) => ((r + k) % 89) / 1000));
  const result = (concurrency: number) => ({ backend: 'vllm', model_id: 'm', tokenizer_id: 'm', max_concurrency: concurrency, completed: 2000, duration: 60, ttfts: itls.map((l) => l[0]), itls, request_throughput: 33.3, mean_ttft_ms: 41.5 });

  it('reads a multi-megabyte detailed result within a worker\'s limit, with the values and lines of a whole read', () => {
    const file = path.join(dir, 'detailed.json');
    writeFileSync(file, `${JSON.stringify(result(64), null, 2)}\n`);
    // a worker leaves a file it would read whole above its limit to the main thread (null): this one is several times the limit set here
    const limit = 2 * 1024 * 1024;
    expect(statSync(file).size).toBeGreaterThan(2 * limit);
    const inWorker = processFileWithin(file, asRelPath('detailed.json'), true, limit);
    expect(inWorker).not.toBeNull();
    const wholeSink = new DiagnosticCollector();
    const whole = parseSource(fromBytes(readFileSync(file), asRelPath('detailed.json'), wholeSink) ?? { path: asRelPath('detailed.json'), lines: [] }, wholeSink);
    expect(inWorker?.records).toEqual(whole.records);
    expect(inWorker?.diagnostics).toEqual(wholeSink.list());
    const run = inWorker?.records[0]?.record;
    expect(run?.kind === 'run' && run.fields).toMatchObject({ max_concurrency: 64, mean_ttft_ms: 41.5 });
    // the last key's line, after 400,000 lines of `itls`
    expect(run?.kind === 'run' && run.lines.mean_ttft_ms).toBe(JSON.stringify(result(64), null, 2).split('\n').findIndex((l) => l.includes('mean_ttft_ms')) + 1);
  });

  it('reads JSON Lines cut inside an array line by line, keeping the documents after the cut', () => {
    const file = path.join(dir, 'appended.jsonl');
    const lines = [JSON.stringify(result(1)), JSON.stringify(result(2)).slice(0, 500_000), JSON.stringify(result(4))];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const outcome = processFile(file, asRelPath('appended.jsonl'));
    expect(outcome.records.map((r) => r.record.kind === 'run' && r.record.fields.max_concurrency)).toEqual([1, 4]);
    expect(outcome.diagnostics.map((d) => [d.code, d.line])).toEqual([['json/too-large-to-recover', 2]]);
  });
});
