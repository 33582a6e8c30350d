import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { Grammar } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { MAX_PIECE_LINES, PIECE_LINES, pieceLines } from '../../src/parse/pieces.js';
import { grammar } from '../../grammars/sglang-bench-one-batch-server/index.js';
import { grammar as oneBatch } from '../../grammars/sglang-bench-one-batch/index.js';
import { grammar as servingJsonl } from '../../grammars/sglang-bench-result-jsonl/index.js';
import { cells } from '../../grammars/sglang-bench-one-batch-server/report-table.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { runGrammar } from '../helpers/grammar-run.js';

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('b.log'), lines }, sink) as RunRecord[];
  return { records, diagnostics: sink.list() };
}

const claims = (g: Grammar, text: string): boolean => g.detect({ path: asRelPath('x.log'), head: text }).score > 0;
const fixture = (format: string, name: string): string => {
  const dir = path.join(FIXTURES, format, name);
  const input = readdirSync(dir).find((f) => f.startsWith('input.')) as string;
  return readFileSync(path.join(dir, input), 'utf8').replaceAll('\r\n', '\n');
};

/** One case as the newest version prints it. */
const newestCase = (bs: number, latency: string, ttft: string): string[] => [
  `batch size: ${bs}`,
  'input_len: 1024',
  'output_len: 16',
  `latency: ${latency} s`,
  'input throughput: 20000.00 tok/s',
  'output throughput: 100.00 tok/s',
  `last_ttft: ${ttft} s`,
  'last generation throughput: 98.00 tok/s',
];

describe('sglang-bench-one-batch-server detection', () => {
  it('claims its JSONL, its printed cases and its report table', () => {
    expect(claims(grammar, fixture('sglang-bench-one-batch-server', 'result-jsonl'))).toBe(true);
    expect(claims(grammar, fixture('sglang-bench-one-batch-server', 'layout-first-version-jsonl'))).toBe(true);
    expect(claims(grammar, newestCase(1, '0.21', '0.05').join('\n'))).toBe(true);
    expect(claims(grammar, fixture('sglang-bench-one-batch-server', 'report-table-only'))).toBe(true);
  });

  it('does not claim bench_serving’s JSONL, nor bench_one_batch’s JSONL and stdout', () => {
    for (const name of ['basic', 'layout-2024-sharegpt', 'layout-2026-server-info']) expect(claims(grammar, fixture('sglang-bench-result-jsonl', name))).toBe(false);
    for (const name of ['basic', 'result-jsonl', 'layout-old-per-step-decode']) expect(claims(grammar, fixture('sglang-bench-one-batch', name))).toBe(false);
    // bench_one_batch's JSON also has batch_size and overall_throughput: its latencies are named apart
    expect(claims(grammar, '{"run_name": "a", "batch_size": 8, "latency": 1.0, "prefill_latency": 0.2, "overall_throughput": 9.0}')).toBe(false);
  });

  it('is not claimed by the grammars of the other SGLang JSONL', () => {
    const jsonl = fixture('sglang-bench-one-batch-server', 'result-jsonl');
    expect(claims(oneBatch, jsonl)).toBe(false);
    expect(claims(servingJsonl, jsonl)).toBe(false);
  });
});

describe('sglang-bench-one-batch-server JSON lines', () => {
  it('maps keys to canonical columns: seconds to ms, the batch as the concurrency, run_name as the label', () => {
    const r = parse([
      '{"run_name": "eagle", "batch_size": 8, "input_len": 1024, "output_len": 16, "latency": 0.2369, "input_throughput": 51848.1, "output_throughput": 1622.31, "overall_throughput": 35120.3, "last_ttft": 0.158, "last_gen_throughput": 1580.4, "acc_length": 2.91, "cache_hit_rate": 0.4012}',
    ]);
    expect(r.records[0]?.label).toBe('eagle');
    expect(r.records[0]?.fields).toEqual({
      batch_size: 8,
      max_concurrency: 8,
      run_name: 'eagle',
      input_len: 1024,
      output_len: 16,
      total_latency_ms: 236.9,
      input_throughput: 51848.1,
      output_throughput: 1622.31,
      total_token_throughput: 35120.3,
      max_ttft_ms: 158,
      last_gen_throughput: 1580.4,
      spec_acceptance_length: 2.91,
      prefix_cache_hit_rate: 0.4012,
      client: 'sglang-bench-one-batch-server',
      engine: 'sglang',
    });
  });

  it('reads -1 as missing (one info), null as missing, keeps unknown keys and reads past nested ones', () => {
    const r = parse(['{"run_name": "", "batch_size": 1, "latency": 0.2, "overall_throughput": 80.0, "ttft": 0.05, "acc_length": -1, "last_gen_throughput": -1, "cache_hit_rate": null, "num_early_stopped": 2, "chunks": 3, "latency_breakdown": {"a": 1}}']);
    const fields = r.records[0]?.fields;
    expect(fields).toMatchObject({ max_ttft_ms: 50, num_early_stopped: 2, chunks: 3 });
    expect(fields).not.toHaveProperty('spec_acceptance_length');
    expect(fields).not.toHaveProperty('last_gen_throughput');
    expect(fields).not.toHaveProperty('prefix_cache_hit_rate');
    expect(fields).not.toHaveProperty('latency_breakdown');
    expect(r.records[0]?.label).toBeNull();
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([['block/sentinel-value', '2 sentinel -1 values read as missing']]);
  });
});

describe('sglang-bench-one-batch-server stdout', () => {
  it('makes a run per measured case, none for the warm-up cases', () => {
    const r = parse(['======== Warmup Begin ========', 'Warmup with batch_size=[1, 4]', ...newestCase(1, '0.30', '0.09'), ...newestCase(4, '0.40', '0.10'), '======== Warmup End   ========', '', ...newestCase(1, '0.21', '0.05'), ...newestCase(4, '0.31', '0.07'), '', 'Results are saved to result.jsonl']);
    expect(r.records.map((x) => [x.at.line, x.fields.batch_size, x.fields.total_latency_ms, x.fields.max_ttft_ms, x.complete])).toEqual([
      [21, 1, 210, 50, true],
      [29, 4, 310, 70, true],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('says the cases above a closing warm-up banner whose opening one is not in the file are warm-up, not runs (a log kept from its middle)', () => {
    const run = [...newestCase(1, '0.30', '0.09'), ...newestCase(4, '0.40', '0.10'), '======== Warmup End   ========', '', ...newestCase(1, '0.21', '0.05'), ...newestCase(4, '0.31', '0.07')];
    const r = parse(run);
    expect(r.records.map((x) => [x.at.line, x.fields.batch_size, x.fields.total_latency_ms])).toEqual([
      [19, 1, 210],
      [27, 4, 310],
    ]);
    expect(r.diagnostics.map((d) => [d.line, d.severity, d.code])).toEqual([
      [1, 'info', 'table/ignored-block'],
      [9, 'info', 'table/ignored-block'],
    ]);
    // not past what ended the run before (its closing line), and not when a warm-up opened above
    const after = parse([...newestCase(2, '0.25', '0.06'), 'Results are saved to result.jsonl', ...run]);
    expect(after.records.map((x) => x.fields.batch_size)).toEqual([2, 1, 4]);
    const opened = parse(['======== Warmup Begin ========', ...newestCase(8, '0.30', '0.09'), '======== Warmup End   ========', ...newestCase(8, '0.20', '0.05'), ...run]);
    expect(opened.records.map((x) => x.fields.batch_size)).toEqual([8, 1, 4, 1, 4]);
  });

  it('reads the mid-2025 layout (`ttft:` before the throughputs)', () => {
    const r = parse(['batch size: 16', 'input_len: 1024', 'output_len: 16', 'latency: 0.41 s', 'ttft: 0.30 s', 'last generation throughput: 2250.10 tok/s', 'input throughput: 54961.42 tok/s', 'output throughput: 2281.64 tok/s']);
    expect(r.records[0]?.fields).toMatchObject({ batch_size: 16, max_concurrency: 16, total_latency_ms: 410, max_ttft_ms: 300, input_throughput: 54961.42, output_throughput: 2281.64, last_gen_throughput: 2250.1 });
    expect(r.records[0]?.complete).toBe(true);
  });

  it('reads the early-stop lines of --disable-ignore-eos and the steady-state window', () => {
    const r = parse([...newestCase(64, '2.10', '1.20'), 'total output tokens: 900 (requested 1024)', 'early-stopped requests: 12/64', 'steady-state output throughput: 1234.56 tok/s over a 0.42 s full-batch window']);
    expect(r.records[0]?.fields).toMatchObject({ total_output_tokens: 900, num_early_stopped: 12, steady_state_output_throughput: 1234.56, steady_state_window_s: 0.42 });
  });

  it('needs no output throughput line for a single output token', () => {
    const r = parse(['batch size: 1', 'input_len: 1024', 'output_len: 1', 'latency: 0.05 s', 'input throughput: 20480.00 tok/s', 'last_ttft: 0.05 s', 'last generation throughput: 0.00 tok/s']);
    expect(r.records[0]?.complete).toBe(true);
    expect(r.diagnostics).toEqual([]);
  });

  it('calls the cases after `Connecting to vLLM server` (--backend vllm) vLLM runs', () => {
    const r = parse(['Connecting to vLLM server at http://localhost:8000...', 'Found model: meta-llama/Llama-3.1-8B-Instruct', 'Loading tokenizer for meta-llama/Llama-3.1-8B-Instruct...', 'Tokenizer loaded.', ...newestCase(1, '0.21', '0.05')]);
    expect(r.records[0]?.fields).toMatchObject({ engine: 'vllm', model: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(r.records[0]?.lines.model).toBe(2);
    // the SGLang path prints the server's limits instead: a later invocation in the same log
    const two = parse(['Connecting to vLLM server at http://localhost:8000...', ...newestCase(1, '0.21', '0.05'), '', 'Results are saved to result.jsonl', 'max_running_requests_per_dp=256', 'dp_size=1', ...newestCase(1, '0.22', '0.05')]);
    expect(two.records.map((x) => x.fields.engine)).toEqual(['vllm', 'sglang']);
  });
});

describe('sglang-bench-one-batch-server report table', () => {
  const manual = [
    'Input lens: [1024]. Output lens: [16].',
    '| batch size | input len | latency (s) | input throughput (tok/s)  | output throughput (tok/s) | acc length | ITL (ms) | input cost ($/1M) | output cost ($/1M) | profile |',
    '| ---------- | --------- | ----------- | ------------------------- | ------------------------- | ---------- | -------- | ----------------- | ------------------ |-------------|',
    '| 1 | 1024 | 0.21 | 21694.92 | 101.33 | 3.12 | 9.87 | 0.04 | 5.48 | [Profile](https://x/a) |',
    '| 4 | 1024 | 0.31 | 30000.00 | 300.00 | n/a | 13.33 | 0.03 | 1.85 | n/a |',
  ];

  it('splits cells, keeping the last cell of a row cut short', () => {
    expect(cells('|   1 | 0.21 | n/a   |')).toEqual(['1', '0.21', 'n/a']);
    expect(cells('| 64 | 1.6')).toEqual(['64', '1.6']);
  });

  it('adds a row’s values to the case it sums up, and makes a run of a row that meets none', () => {
    const r = parse([...newestCase(1, '0.21', '0.05'), '', ...manual]);
    expect(r.records).toHaveLength(2);
    const [matched, alone] = r.records;
    expect(matched?.at.line).toBe(1);
    expect(matched?.fields).toMatchObject({ batch_size: 1, input_throughput: 20000, spec_acceptance_length: 3.12, profile_link: 'https://x/a', output_len: 16 });
    expect(matched?.lines.spec_acceptance_length).toBe(13);
    expect(alone?.at.line).toBe(14);
    expect(alone?.fields).toEqual({ batch_size: 4, max_concurrency: 4, input_len: 1024, total_latency_ms: 310, input_throughput: 30000, output_throughput: 300, output_len: 16, client: 'sglang-bench-one-batch-server', engine: 'sglang' });
    // the derived ITL and cost columns are read past
    expect(Object.keys(alone?.fields ?? {}).some((k) => /itl|cost/.test(k))).toBe(false);
  });

  it('counts a table printed twice once', () => {
    const r = parse([...manual, '', ...manual]);
    expect(r.records.map((x) => x.at.line)).toEqual([4, 5]);
  });

  it('keeps a header it does not know under its own name, and flags a short row', () => {
    const r = parse(['| batch size | latency (s) | input throughput (tok/s) | output throughput (tok/s) | queue time (s) |', '|---|---|---|---|---|', '| 8 | 0.50 | 1000.0 | 200.0 | 0.01 |', '| 16 | 0.9']);
    expect(r.records[0]?.fields.queue_time_s).toBe(0.01);
    expect(r.records[1]?.complete).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['table/unknown-metric', 'table/short-row']);
  });
});

describe('sglang-bench-one-batch-server read in pieces', () => {
  afterEach(() => {
    Object.assign(pieceLines, { min: PIECE_LINES, max: MAX_PIECE_LINES });
  });

  it.each(['basic', 'layout-manual-report-table', 'warn-truncated'])('%s: pieces of any size give what the whole gives', (name) => {
    const text = fixture('sglang-bench-one-batch-server', name);
    const doubled = `${text}\n${text}`;
    Object.assign(pieceLines, { min: Number.POSITIVE_INFINITY, max: Number.POSITIVE_INFINITY });
    const whole = runGrammar(grammar, doubled);
    for (const min of [1, 2, 5, 17]) {
      Object.assign(pieceLines, { min, max: Number.POSITIVE_INFINITY });
      expect(runGrammar(grammar, doubled), `pieces of ${min}+ lines`).toEqual(whole);
    }
  });
});
