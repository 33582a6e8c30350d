import { describe, expect, it } from 'vitest';
import { columnTarget, tableKind } from '../../../grammars/guidellm-console/columns.js';
import { grammar } from '../../../grammars/guidellm-console/index.js';
import { spannedLabels } from '../../../grammars/guidellm-console/table.js';
import type { Diagnostic } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const SUMMARY = [
  'ℹ Run Summary Info',
  '|=============|======|=========|=========|',
  '| Benchmark   | Timings | Input Tokens || ',
  '| Strategy    | Dur  | Comp    | Inc     |',
  '|             | Sec  | Tot     | Tot     |',
  '|-------------|------|---------|---------|',
];
const LATENCY = [
  'ℹ Request Latency Statistics (Completed Requests)',
  '|=============|=========|========|======|======|',
  '| Benchmark   | Request Latency || TTFT       ||',
  '| Strategy    | Sec             || ms         ||',
  '|             | Mdn     | p95    | Mdn  | p95  |',
  '|-------------|---------|--------|------|------|',
];
const THROUGHPUT = [
  'ℹ Server Throughput Statistics (All Requests)',
  '|=============|=======|=======|=========|===============|',
  '| Benchmark   | Requests              ||| Output Tokens |',
  '| Strategy    | Concurrency  || Per Sec | Per Sec       |',
  '|             | Mdn   | Mean  | Mean                  ||',
  '|-------------|-------|-------|---------|---------------|',
];
/** The closing rule of a table is the one above its header. */
const close = (head: readonly string[]): string => head[1] as string;

/** A table: its head (title, rules, header rows), value rows and closing rule. */
/** The diagnostics other than the `table/no-load` info every report with a constant row has (its own test below). */
const notLoad = (d: Diagnostic): boolean => d.code !== 'table/no-load';
const besidesLoad = (ds: readonly Diagnostic[]): Diagnostic[] => ds.filter(notLoad);

function table(head: readonly string[], rows: readonly string[]): string[] {
  return [...head, ...rows, close(head)];
}

const summaryRows = ['| synchronous | 30.0 | 7680.0  | 256.0   |', '| constant    | 30.0 | 55296.0 | 512.0   |'];
const latencyRows = ['| synchronous | 0.9     | 1.05   | 21.4 | 25.9 |', '| constant    | 1.1     | 1.3    | 27.3 | 38.8 |'];
const throughputRows = ['| synchronous | 1.0   | 1.0   | 1.1     | 131.2         |', '| constant    | 8.0   | 7.9   | 7.2     | 921.6         |'];

function report(): string[] {
  return [...table(SUMMARY, summaryRows), '', ...table(LATENCY, latencyRows), '', ...table(THROUGHPUT, throughputRows)];
}

describe('guidellm-console', () => {
  it('reads each column by its group / name / units: seconds to ms, the mean of a rate, the strategy', () => {
    const { records, diagnostics } = runGrammar(grammar, report().join('\n'));
    expect(runFields(records)).toEqual([
      {
        strategy: 'synchronous', max_concurrency: 1, duration_s: 30, total_input_tokens: 7680,
        median_e2el_ms: 900, p95_e2el_ms: 1050, median_ttft_ms: 21.4, p95_ttft_ms: 25.9,
        median_request_concurrency: 1, mean_request_concurrency: 1, request_throughput: 1.1, output_throughput: 131.2, client: 'guidellm',
      },
      {
        strategy: 'constant', duration_s: 30, total_input_tokens: 55296,
        median_e2el_ms: 1100, p95_e2el_ms: 1300, median_ttft_ms: 27.3, p95_ttft_ms: 38.8,
        median_request_concurrency: 8, mean_request_concurrency: 7.9, request_throughput: 7.2, output_throughput: 921.6, client: 'guidellm',
      },
    ]);
    expect(besidesLoad(diagnostics)).toEqual([]);
  });

  it('says once a report which benchmarks the console gives no load for (constant, poisson, concurrent)', () => {
    expect(runGrammar(grammar, report().join('\n')).diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      "8 table/no-load 1 benchmark (constant) without its rate or concurrency: GuideLLM's console does not print them (its benchmarks.json does); told apart by their order only",
    ]);
    const synchronousOnly = [...table(SUMMARY, [summaryRows[0] as string]), '', ...table(LATENCY, [latencyRows[0] as string]), '', ...table(THROUGHPUT, [throughputRows[0] as string])];
    expect(runGrammar(grammar, synchronousOnly.join('\n')).diagnostics).toEqual([]);
  });

  it('joins the k-th row of every table into the k-th run, each value at its own line', () => {
    const { records } = runGrammar(grammar, report().join('\n'));
    const [first, second] = records.flatMap((r) => (r.kind === 'run' ? [r] : []));
    // rows of the summary: lines 7 and 8; of the latency table: 17 and 18; of the throughput table: 27 and 28
    expect(first?.at.line).toBe(7);
    expect(first?.lines).toMatchObject({ strategy: 7, total_input_tokens: 7, median_e2el_ms: 17, request_throughput: 27 });
    expect(second?.lines).toMatchObject({ strategy: 8, median_ttft_ms: 18, output_throughput: 28 });
    expect(records.every((r) => r.kind === 'run' && r.complete)).toBe(true);
  });

  it('warns about a table whose rows do not line up, naming it, and keeps what it has', () => {
    const shorter = [...table(SUMMARY, summaryRows), '', ...table(LATENCY, latencyRows.slice(0, 1)), '', ...table(THROUGHPUT, throughputRows)];
    const { records, diagnostics } = runGrammar(grammar, shorter.join('\n'));
    expect(besidesLoad(diagnostics).map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      `11 table/row-mismatch rows of table "Request Latency Statistics (Completed Requests)" do not line up with the first table's (1 row, not 2 as in "Run Summary Info"): joined by position`,
    ]);
    expect(runFields(records).map((f) => f.median_e2el_ms)).toEqual([900, undefined]);
    expect(records.map((r) => r.kind === 'run' && r.complete)).toEqual([true, false]);

    const swapped = [...table(SUMMARY, summaryRows), '', ...table(LATENCY, [...latencyRows].reverse()), '', ...table(THROUGHPUT, throughputRows)];
    expect(runGrammar(grammar, swapped.join('\n')).diagnostics.filter(notLoad).map((d) => d.message)).toEqual([
      `rows of table "Request Latency Statistics (Completed Requests)" do not line up with the first table's (row 1 is "constant", not "synchronous"): joined by position`,
    ]);
  });

  it('keeps the complete rows of a table cut short, and says the output ends before its last table', () => {
    const cut = [...table(SUMMARY, summaryRows), '', ...LATENCY, latencyRows[0] as string, '| constant    | 1.1     | 1.'];
    const { records, diagnostics } = runGrammar(grammar, cut.join('\n'));
    expect(runFields(records).map((f) => f.median_e2el_ms)).toEqual([900, undefined]);
    expect(records.map((r) => r.kind === 'run' && r.complete)).toEqual([false, false]);
    expect(besidesLoad(diagnostics).map((d) => `${d.line} ${d.code}`)).toEqual(['11 block/truncated', '18 parse/unrecognized-lines']);

    const between = [...table(SUMMARY, summaryRows), '', ...table(LATENCY, latencyRows)];
    expect(runGrammar(grammar, between.join('\n')).diagnostics.filter(notLoad).map((d) => d.message)).toEqual([
      'result block ends before its footer (no Server Throughput Statistics table after the Run Summary Info): kept as a partial run',
    ]);
  });

  it('reads `--`, `N/A`, `-` and empty cells as no value, and reports a cell that is no number', () => {
    const rows = ['| synchronous | --      | N/A    | -    |      |', '| constant    | 1.1     | 1.3    | 27.3 | 3o.1 |'];
    const { records, diagnostics } = runGrammar(grammar, table(LATENCY, rows).join('\n'));
    expect(runFields(records)).toEqual([
      { strategy: 'synchronous', max_concurrency: 1, client: 'guidellm' },
      { strategy: 'constant', median_e2el_ms: 1100, p95_e2el_ms: 1300, median_ttft_ms: 27.3, client: 'guidellm' },
    ]);
    expect(besidesLoad(diagnostics).map((d) => d.message)).toEqual(['value "3o.1" of "TTFT ms p95" is not a number']);
  });

  it('continues a table broken by a foreign line, and ignores unknown tables and columns', () => {
    const broken = [...LATENCY, latencyRows[0] as string, 'WARNING 04-01 12:00:00 something else printed here', latencyRows[1] as string, close(LATENCY)];
    const { records, diagnostics } = runGrammar(grammar, broken.join('\n'));
    expect(runFields(records).map((f) => f.median_ttft_ms)).toEqual([21.4, 27.3]);
    expect(besidesLoad(diagnostics).map((d) => `${d.line} ${d.code}`)).toEqual(['8 parse/unrecognized-lines', '9 parse/syntax']);

    const extra = [
      ...table(['ℹ Goodput Statistics', '|=====|=====|', '| Benchmark | Goodput |', '| Strategy | Per Sec |', '| | Mean |', '|-----|-----|'], ['| constant | 3.0 |']),
      '',
      ...table(
        ['ℹ Request Latency Statistics', '|====|====|====|', '| Benchmark | TTFT | Queue |', '| Strategy | ms | ms |', '| | Mdn | Mdn |', '|----|----|----|'],
        ['| constant | 12.5 | 3.0 |'],
      ),
    ];
    const read = runGrammar(grammar, extra.join('\n'));
    expect(runFields(read.records)).toEqual([{ strategy: 'constant', median_ttft_ms: 12.5, client: 'guidellm' }]);
    expect(read.diagnostics.filter(notLoad).map((d) => `${d.code} ${d.message}`)).toEqual(['table/ignored-block table "Goodput Statistics" ignored']);
  });

  it('gives each command’s output its own runs and the model its backend line names', () => {
    const text = [
      '✔ OpenAIHTTPBackend backend validated with model acme/a-8b',
      "  {'target': 'http://localhost:8000'}",
      ...table(SUMMARY, summaryRows.slice(0, 1)),
      ...table(THROUGHPUT, throughputRows.slice(0, 1)),
      '✔ OpenAIHTTPBackend backend validated with model acme/b-70b',
      ...table(SUMMARY, summaryRows.slice(1)),
      ...table(THROUGHPUT, throughputRows.slice(1)),
    ];
    const { records, diagnostics } = runGrammar(grammar, text.join('\n'));
    expect(runFields(records).map((f) => [f.model, f.strategy, f.request_throughput])).toEqual([
      ['acme/a-8b', 'synchronous', 1.1],
      ['acme/b-70b', 'constant', 7.2],
    ]);
    expect(besidesLoad(diagnostics)).toEqual([]);
  });

  it('reads a header label spanning columns, written once and followed by empty cells', () => {
    expect(spannedLabels('| Benchmark | Timings      ||| Input Tokens || ')).toEqual(['Benchmark', 'Timings', 'Timings', 'Timings', 'Input Tokens', 'Input Tokens']);
    expect(spannedLabels('|           | Sec  |')).toEqual(['', 'Sec']);
    expect(columnTarget({ group: 'Output Tok', name: 'Per Stream Iter', units: 'Mdn' })).toBeNull();
    expect(columnTarget({ group: 'Requests', name: 'Per Sec', units: 'Mdn' })).toBeNull();
    expect(tableKind('### my results', [{ group: 'TTFT', name: 'ms', units: 'Mdn' }])).toBe('latency');
  });

  describe('detection', () => {
    const path = asRelPath('guidellm.log');
    const score = (head: string): number => grammar.detect({ path, head }).score;

    it('claims GuideLLM’s tables, with or without their title, after its status lines only', () => {
      expect(score(['ℹ Setup complete, starting benchmarks...', '✔ Benchmarking complete', '', ...report()].join('\n'))).toBeGreaterThan(0.5);
      expect(score(['  ```', ...LATENCY.map((l) => `  ${l}`)].join('\n'))).toBeGreaterThan(0.5);
      expect(score(LATENCY.slice(1).join('\n'))).toBeGreaterThan(0.5);
    });

    it('does not claim a GenAI-Perf table, a vLLM result block or a Markdown table of a write-up', () => {
      const genaiPerf = ['                NVIDIA GenAI-Perf | LLM Metrics', '┏━━━━━━━━━━━┳━━━━━┓', '┃ Statistic ┃ avg ┃', '┡━━━━━━━━━━━╇━━━━━┩', '│ Request Latency (ms) │ 5.00 │', '└───────────┴─────┘'];
      const vllm = ['============ Serving Benchmark Result ============', 'Successful requests:                     100', 'Benchmark duration (s):                  12.34', '=================================================='];
      const markdown = [
        '## Request Latency Statistics (Completed Requests)',
        '',
        '| Benchmark | Request Latency | TTFT |',
        '| Strategy  | Sec             | ms   |',
        '|-----------|-----------------|------|',
        '| constant  | 0.4             | 23.2 |',
      ];
      for (const text of [genaiPerf, vllm, markdown]) expect(score(text.join('\n'))).toBe(0);
    });
  });
});
