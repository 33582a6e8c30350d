import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/tgi-benchmark/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

// text-generation-benchmark prints its tables with vertically merged cells: a cell equal to the one
// above it is blank (the batch size of a one-batch report, a statistic repeated from the row above).
describe('tgi-benchmark merged cells', () => {
  it('reads a report of one batch size, whose later step rows leave the batch size blank', () => {
    const text = [
      '| Step           | Batch Size | Average   | p99       |',
      '|----------------|------------|-----------|-----------|',
      '| Prefill        | 16         | 150.00 ms | 160.00 ms |',
      '| Decode (token) |            | 20.00 ms  | 21.00 ms  |',
      '| Decode (total) |            | 2540.0 ms | 2600.0 ms |',
      '',
      '| Step    | Batch Size | Average            |',
      '|---------|------------|--------------------|',
      '| Prefill | 16         | 106.5 tokens/secs  |',
      '| Decode  |            | 800.25 tokens/secs |',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(diagnostics).toEqual([]);
    expect(records.map((r) => r.kind === 'run' && r.complete)).toEqual([true]);
    expect(runFields(records)).toEqual([
      {
        mean_ttft_ms: 150, p99_ttft_ms: 160, mean_tpot_ms: 20, p99_tpot_ms: 21, mean_decode_total_ms: 2540, p99_decode_total_ms: 2600,
        prefill_throughput: 106.5, output_throughput: 800.25, max_concurrency: 16, engine: 'tgi', client: 'tgi-benchmark',
      },
    ]);
  });

  it('gives a blank statistic the value printed above it in its column', () => {
    const text = [
      '| Step           | Batch Size | Average  | p99      |',
      '|----------------|------------|----------|----------|',
      '| Decode (token) | 1          | 9.10 ms  | 9.40 ms  |',
      '|                | 2          | 9.25 ms  |          |',
    ].join('\n');
    expect(runFields(runGrammar(grammar, text).records).map((f) => [f.max_concurrency, f.mean_tpot_ms, f.p99_tpot_ms])).toEqual([
      [1, 9.1, 9.4],
      [2, 9.25, 9.4],
    ]);
  });
});

describe('tgi-benchmark parameters', () => {
  it('unwraps options printed as Some(x) and leaves None out', () => {
    const text = [
      '| Parameter    | Value      |',
      '|--------------|------------|',
      '| Model        | acme/m-1b  |',
      '| Decode Length| 32         |',
      '| Top N Tokens | Some(3)    |',
      '| Temperature  | Some(0.6)  |',
      '| Top K        | None       |',
      '',
      '| Step | Batch Size | Average |',
      '|---|---|---|',
      '| Prefill | 1 | 5 ms |',
    ].join('\n');
    const [fields] = runFields(runGrammar(grammar, text).records);
    expect(fields).toMatchObject({ top_n_tokens: 3, temperature: 0.6, output_len: 32 });
    expect(fields).not.toHaveProperty('top_k');
  });
});
