import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { grammar } from '../../grammars/sglang-bench-serving/index.js';
import { grammar as vllm } from '../../grammars/vllm-bench-serve/index.js';

const pad = (label: string, value: string): string => `${label.padEnd(40)} ${value.padEnd(10)}`;

function block(lines: string[]): string[] {
  return ['', '============ Serving Benchmark Result ============', ...lines, '='.repeat(50)];
}

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('x.txt'), lines }, sink) as RunRecord[];
  return { records, diagnostics: sink.list() };
}

describe('sglang-bench-serving value conversions', () => {
  it('reads the v0.4 typo label and `not set` as an explicit null', () => {
    const typo = parse(block([pad('Backend:', 'sglang'), pad('Max reqeuest concurrency:', '128'), pad('Successful requests:', '10')]));
    expect(typo.records[0]?.fields.max_concurrency).toBe(128);
    const unset = parse(block([pad('Backend:', 'sglang'), pad('Max request concurrency:', 'not set'), pad('Successful requests:', '10')]));
    expect(unset.records[0]?.fields).toHaveProperty('max_concurrency', null);
  });

  it('drops fork sentinels (-1, -1.00) but keeps -0.00 and reports one info', () => {
    const r = parse(block([pad('Backend:', 'sglang'), pad('Peak concurrent requests:', '-1'), pad('Concurrency:', '-1.00'), pad('Median TPOT (ms):', '-0.00')]));
    expect(r.records[0]?.fields).not.toHaveProperty('peak_concurrent_requests');
    expect(r.records[0]?.fields).not.toHaveProperty('concurrency');
    expect(r.records[0]?.fields.median_tpot_ms).toBe(0);
    expect(r.diagnostics.map((d) => `${d.code}:${d.line}`)).toEqual(['block/sentinel-value:4']);
  });

  it('maps 2024 and 2026 spellings to the same columns', () => {
    const r = parse(block([
      pad('Backend:', 'vllm-chat'),
      pad('Traffic request rate:', 'trace'),
      pad('Total throughput (tok/s):', '12.50'),
      pad('Accept length:', '3.21'),
      pad('Mean E2E Latency (ms):', '710627.73'),
      pad('P90 E2E Latency (ms):', '1263758.99'),
      pad('Max ITL (ms):', '9.00'),
    ]));
    expect(r.records[0]?.fields).toMatchObject({
      backend: 'vllm-chat',
      engine: 'vllm',
      client: 'sglang-bench-serving',
      request_rate_mode: 'trace',
      total_token_throughput: 12.5,
      spec_acceptance_length: 3.21,
      mean_e2el_ms: 710627.73,
      p90_e2el_ms: 1263758.99,
      max_itl_ms: 9,
    });
    expect(r.records[0]?.fields).not.toHaveProperty('request_rate');
    expect(r.diagnostics).toEqual([]);
  });

  it('leaves SGLang blocks to this grammar and vLLM blocks to vLLM', () => {
    const lines = [...block([pad('Backend:', 'sglang'), pad('Successful requests:', '7')]), ...block([pad('Successful requests:', '9')])];
    const sink = new DiagnosticCollector();
    const mine = grammar.parse({ path: asRelPath('x.md'), lines }, sink) as RunRecord[];
    const theirs = vllm.parse({ path: asRelPath('x.md'), lines }, sink) as RunRecord[];
    expect(mine.map((r) => r.fields.completed)).toEqual([7]);
    expect(theirs.map((r) => r.fields.completed)).toEqual([9]);
  });

  it('names an engine only for server-engine backends', () => {
    expect(['sglang-oai-chat', 'vllm', 'trt', 'lmdeploy', 'openai', 'tgi'].map(engineFromBackend)).toEqual(['sglang', 'vllm', 'trtllm', 'lmdeploy', undefined, undefined]);
  });

  it('detects only files with SGLang-only lines under the header', () => {
    const head = (body: string[]) => grammar.detect({ path: asRelPath('x'), head: block(body).join('\n') }).score;
    expect(head([pad('Backend:', 'sglang')])).toBeGreaterThan(0);
    expect(head([pad('Successful requests:', '3')])).toBe(0);
  });
});
