import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/tgi-benchmark/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

describe('tgi-benchmark', () => {
  it('detects the step table, not any Markdown table', () => {
    const path = asRelPath('t.md');
    expect(grammar.detect({ path, head: '| Step | Batch Size | Average |\n|---|---|---|' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '| Parameter | Value |\n|---|---|\n| Model | x |' }).score).toBe(0);
    expect(grammar.detect({ path, head: '| Engine | TTFT |\n|---|---|' }).score).toBe(0);
  });

  it('splits tables printed back to back and converts seconds', () => {
    const text = [
      '| Step | Batch Size | Average | p99 |',
      '|---|---|---|---|',
      '| Decode (token) | 8 | 0.02 s | 25.5 ms |',
      '| Step | Batch Size | Average | Lowest |',
      '|---|---|---|---|',
      '| Decode | 8 | 320.5 tokens/secs | 300 tokens/secs |',
      '|  | x | 1 ms | 2 ms |',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([
      { mean_tpot_ms: 20, p99_tpot_ms: 25.5, output_throughput: 320.5, min_output_throughput: 300, max_concurrency: 8, engine: 'tgi', client: 'tgi-benchmark' },
    ]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['3 block/truncated', '7 table/bad-cell']);
    expect(records[0]?.kind === 'run' && records[0].complete).toBe(false);
  });

  it('continues a table broken by a foreign line, with a warning, and keeps the step', () => {
    const text = [
      '| Step | Batch Size | Average | p99 |',
      '|---|---|---|---|',
      '| Prefill | 1 | 10 ms | 12 ms |',
      'Segmentation fault (core dumped)',
      '|  | 2 | 20 ms | 22 ms |',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records).map((f) => [f.max_concurrency, f.mean_ttft_ms, f.p99_ttft_ms])).toEqual([
      [1, 10, 12],
      [2, 20, 22],
    ]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['3 block/truncated', '4 parse/unrecognized-lines', '5 parse/syntax']);
  });

  it("reads past a server's log lines tee'd into its tables, with an info", () => {
    const clean = [
      '| Parameter | Value |',
      '|---|---|',
      '| Model | org/model-8b |',
      '| Decode Length | 8 |',
      '',
      '| Step | Batch Size | Average | p99 |',
      '|---|---|---|---|',
      '| Prefill | 1 | 10 ms | 12 ms |',
      '|  | 2 | 20 ms | 22 ms |',
    ];
    // (a vLLM access line, TensorRT-LLM's C++ logger, a vLLM warning)
    const teed = [
      ...clean.slice(0, 3),
      '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /generate HTTP/1.1" 200 OK',
      ...clean.slice(3, 6),
      '[TensorRT-LLM][INFO] Number of tokens per block: 32.',
      ...clean.slice(6, 8),
      'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out',
      ...clean.slice(8),
    ];
    const before = runGrammar(grammar, clean.join('\n'));
    const after = runGrammar(grammar, teed.join('\n'));
    expect(runFields(after.records).map((f) => [f.model, f.output_len, f.max_concurrency, f.mean_ttft_ms, f.p99_ttft_ms])).toEqual([
      ['org/model-8b', 8, 1, 10, 12],
      ['org/model-8b', 8, 2, 20, 22],
    ]);
    expect(runFields(after.records)).toEqual(runFields(before.records));
    // at their lines in the file
    expect(after.records.filter((r) => r.kind === 'run').map((r) => r.at.line)).toEqual([10, 12]);
    expect(after.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code} ${d.message}`)).toEqual([
      "4 info block/interleaved-line 3 interleaved lines (a server's log, a progress bar) skipped in a result block or table",
      ...before.diagnostics.map((d) => `${d.line === 8 ? 10 : d.line} ${d.severity} ${d.code} ${d.message}`),
    ]);
  });

  it('warns once for a cut table, naming the batch sizes, and turns an all-NaN batch into an info', () => {
    const text = [
      '| Step           | Batch Size | Average  | Lowest   | Highest  | p50      | p90      | p99      |',
      '|----------------|------------|----------|----------|----------|----------|----------|----------|',
      '| Prefill        | 1          | 50.00 ms | 49.00 ms | 51.00 ms | 50.00 ms | 51.00 ms | 51.00 ms |',
      '|                | 4          | 60.00 ms | 58.00 ms | 62.00 ms | 60.00 ms | 62.00 ms | 62.00 ms |',
      '|                | 16         | NaN ms   | NaN ms   | NaN ms   | NaN ms   | NaN ms   | NaN ms   |',
      '| Decode (token) | 1          | 20.00 ms | 19.50 ms | 20.50 ms | 20.00 ms | 20.50 ms | 20.50 ms |',
      '|                | 4          |          | 21.00 ms | 22.00 ms |          | 22.00 ms | 22.00 ms |',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records).map((f) => [f.max_concurrency, f.mean_ttft_ms, f.max_tpot_ms])).toEqual([
      [1, 50, 20.5],
      [4, 60, 22],
    ]);
    expect(records.map((r) => r.kind === 'run' && r.complete)).toEqual([false, false]);
    expect(diagnostics.map((d) => `${d.line} ${d.severity} ${d.code} ${d.message}`)).toEqual([
      '3 warning block/truncated result block ends before its footer (step rows missing for batch size 1, 4): kept as a partial run',
      '5 info table/ignored-block batch size 16 (every cell NaN or empty) ignored',
    ]);
  });

  it('reads each report of a write-up that pastes several, with its own parameters and label', () => {
    const report = (model: string, prefill: string): string[] => [
      `## ${model}`,
      '',
      '| Parameter | Value |',
      '|---|---|',
      `| Model | ${model} |`,
      '| Decode Length | 64 |',
      '',
      '| Step | Batch Size | Average |',
      '|---|---|---|',
      `| Prefill | 1 | ${prefill} ms |`,
      '| Decode (token) | 1 | 9 ms |',
      '| Decode (total) | 1 | 570 ms |',
      '',
      '| Step | Batch Size | Average |',
      '|---|---|---|',
      '| Prefill | 1 | 1000 tokens/secs |',
      '| Decode | 1 | 110 tokens/secs |',
      '',
    ];
    const { records, diagnostics } = runGrammar(grammar, [...report('acme/a-1b', '21'), ...report('acme/b-8b', '99')].join('\n'));
    expect(records.map((r) => r.kind === 'run' && [r.label, r.fields.model, r.fields.mean_ttft_ms, r.at.line])).toEqual([
      ['acme/a-1b', 'acme/a-1b', 21, 10],
      ['acme/b-8b', 'acme/b-8b', 99, 28],
    ]);
    expect(diagnostics).toEqual([]);
    // printed bare, one after the other: the second latency table starts the second report
    const bare = [...report('x', '21').slice(7), ...report('x', '99').slice(7)].join('\n');
    expect(runFields(runGrammar(grammar, bare).records).map((f) => f.mean_ttft_ms)).toEqual([21, 99]);
  });
});
