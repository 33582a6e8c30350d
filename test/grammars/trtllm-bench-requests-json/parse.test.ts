import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../../grammars/index.js';
import { grammar } from '../../../grammars/trtllm-bench-requests-json/index.js';
import { NOT_MINE } from '../../../src/core/grammar.js';
import { asRelPath } from '../../../src/core/types.js';
import { processFile } from '../../../src/pipeline/process-file.js';
import { runGrammar } from '../../helpers/grammar-run.js';

/** One `ReportUtility.get_request_info` entry (1.x keys). */
function request(id: number): Record<string, unknown> {
  const start = 6_000_000_000_000 + id * 1000;
  return {
    id,
    num_input_tokens: 128,
    error_tokens: 0,
    start_timestamp: start,
    first_token_timestamp: start + 40_000_000,
    end_timestamp: start + 90_000_000,
    decode_iteration: 99,
    num_total_output_tokens: 100,
    num_generated_tokens: 99,
    generation_time: 50_000_000,
    time_to_first_token: 40_000_000,
    intertoken_latency: 505050.50505050505,
    end_to_end_latency: 90_000_000,
    total_token_throughput: 1.1111111111111112e-6,
    generation_token_throughput: 1.98e-6,
    output: ' lorem ipsum '.repeat(20),
    output_tokens: 100,
  };
}

const head = (text: string) => ({ path: asRelPath('x.json'), head: text });
const otherClaims = (text: string) =>
  Object.values(GRAMMARS)
    .filter((g) => g.id !== grammar.id && g.detect(head(text)).score > 0)
    .map((g) => g.id);

describe('detect', () => {
  it('claims --request_json in both layouts (indent=4 since 1.0, one line before)', () => {
    const reqs = [request(1), request(2)];
    for (const text of [JSON.stringify(reqs, null, 4), JSON.stringify(reqs)]) {
      expect(grammar.detect(head(text)).score).toBeGreaterThan(0.5);
      expect(otherClaims(text)).toEqual([]);
    }
  });

  it('claims --output_json (request id → text), with a low score', () => {
    const text = JSON.stringify({ 1: 'Paris', 2: 'blue' }, null, 4);
    expect(grammar.detect(head(text)).score).toBeGreaterThan(0);
    expect(otherClaims(text)).toEqual([]);
  });

  it('does not claim other JSON', () => {
    expect(grammar.detect(head('{"1": 2}'))).toBe(NOT_MINE);
    expect(grammar.detect(head('{"engine": {}, "world_info": {}}'))).toBe(NOT_MINE);
    expect(grammar.detect(head('[{"iter": 1, "iterLatencyMS": 2}]'))).toBe(NOT_MINE);
    expect(grammar.detect(head('[{"first_token_timestamp": 1}]'))).toBe(NOT_MINE);
    expect(grammar.detect(head(''))).toBe(NOT_MINE);
  });
});

describe('parse', () => {
  it('says once what the file is, and gives no record', () => {
    const { records, diagnostics } = runGrammar(grammar, JSON.stringify([request(1), request(2)], null, 4));
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([['table/ignored-block', 'info', 1]]);
  });

  it('warns when the file ends before its closing bracket', () => {
    const text = JSON.stringify({ 1: 'a', 2: 'b' }, null, 4).replace(/\n}$/, '');
    const { diagnostics } = runGrammar(grammar, text);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['table/ignored-block', 1],
      ['json/syntax', 3],
    ]);
  });

  it('says nothing of a blank source', () => {
    expect(runGrammar(grammar, '\n\n').diagnostics).toEqual([]);
  });
});

describe('a large file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-requests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is streamed, not read whole: one info, no run, no warning', () => {
    const reqs = Array.from({ length: 4000 }, (_, i) => request(i + 1));
    const text = JSON.stringify(reqs, null, 4);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const file = path.join(dir, 'requests.json');
    writeFileSync(file, text);
    const outcome = processFile(file, asRelPath('requests.json'));
    expect(outcome.report).toMatchObject({ status: 'parsed', formats: ['trtllm-bench-requests-json'], runs: 0, warnings: 0, errors: 0, infos: 1 });
  });

  it('on one line (before 1.0): its head is all it needs, so the truncated line is an info, not a warning', () => {
    const file = path.join(dir, 'requests-one-line.json');
    writeFileSync(file, JSON.stringify(Array.from({ length: 4000 }, (_, i) => request(i + 1))));
    const outcome = processFile(file, asRelPath('requests-one-line.json'));
    expect(outcome.report).toMatchObject({ status: 'parsed', formats: ['trtllm-bench-requests-json'], runs: 0, warnings: 0, errors: 0, infos: 2 });
    expect(outcome.diagnostics.map((d) => d.code).sort()).toEqual(['read/long-line-head', 'table/ignored-block']);
  });

  it('of outputs too', () => {
    const outputs = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [i + 1, ' lorem ipsum '.repeat(30)]));
    const file = path.join(dir, 'outputs.json');
    writeFileSync(file, JSON.stringify(outputs, null, 4));
    const outcome = processFile(file, asRelPath('outputs.json'));
    expect(outcome.report).toMatchObject({ status: 'parsed', formats: ['trtllm-bench-requests-json'], runs: 0, warnings: 0, errors: 0, infos: 1 });
  });
});
