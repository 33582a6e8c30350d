import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/guidellm-console/index.js';
import { parseStrategyLabel } from '../../../grammars/guidellm-console/strategy-label.js';
import { readBarTable } from '../../../grammars/guidellm-console/v03-table.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/*
 * GuideLLM 0.2 / 0.3's `Benchmarks Info:` / `Benchmarks Stats:` tables, laid out as
 * `GenerativeBenchmarksConsole.print_table` lays them out: cells right-aligned, joined by `| `, a
 * section line above the header, `=` rules.
 */
const INFO = [
  'Benchmarks Info:',
  '==================================================================================================================================================',
  'Metadata                                      |||| Requests Made  ||| Prompt Tok/Req ||| Output Tok/Req||| Prompt Tok Total ||| Output Tok Total||',
  '    Benchmark| Start Time| End Time| Duration (s)|  Comp|  Inc|  Err|  Comp|   Inc| Err|  Comp|  Inc| Err|   Comp|   Inc|  Err|   Comp|  Inc|  Err',
  '-------------|-----------|---------|-------------|------|-----|-----|------|------|----|------|-----|----|-------|------|-----|-------|-----|-----',
];
const STATS = [
  'Benchmarks Stats:',
  '================================================================================================================================================',
  'Metadata     | Request Stats         || Out Tok/sec| Tot Tok/sec| Req Latency (ms)||| TTFT (ms)       ||| ITL (ms)        ||| TPOT (ms)       ||',
  '    Benchmark| Per Second| Concurrency|        mean|        mean| mean| median|  p99| mean| median|  p99| mean| median|  p99| mean| median|  p99',
  '-------------|-----------|------------|------------|------------|-----|-------|-----|-----|-------|-----|-----|-------|-----|-----|-------|-----',
];
const infoRows = {
  sync: '  synchronous|   10:00:00| 10:00:30|         30.0|    14|    1|    0| 256.0| 256.0| 0.0| 128.0| 50.0| 0.0|   3584|   256|    0|   1792|   50|    0',
  c5a: 'constant@5.00|   10:00:31| 10:01:01|         30.0|   140|    9|    0| 256.1| 256.0| 0.0| 128.0| 61.0| 0.0|  35854|  2304|    0|  17920|  549|    0',
  c5b: 'constant@5.00|   10:01:02| 10:01:32|         30.0|   142|    7|    1| 256.0| 256.0| 0.0| 128.0| 60.0| 0.0|  36352|  1792|    0|  18176|  420|    0',
};
const statsRows = {
  sync: '  synchronous|       0.47|        1.00|        59.7|       179.2| 2.13|   2.12| 2.20| 41.0|   40.2| 52.3| 16.4|   16.3| 16.9| 16.3|   16.2| 16.8',
  c5a: 'constant@5.00|       4.67|       10.50|       597.3|      1792.0| 2.25|   2.24| 2.61| 44.8|   43.9| 80.1| 17.3|   17.2| 18.4| 17.2|   17.1| 18.3',
  c5b: 'constant@5.00|       4.73|       10.71|       605.4|      1816.3| 2.26|   2.25| 2.64| 45.2|   44.0| 81.7| 17.4|   17.3| 18.5| 17.3|   17.2| 18.4',
};
const closing = (head: readonly string[]): string => head[1] as string;
const table = (head: readonly string[], rows: readonly string[]): string[] => [...head, ...rows, closing(head)];
const report = (info: readonly string[], stats: readonly string[]): string => [...table(INFO, info), '', ...table(STATS, stats)].join('\n');

describe('guidellm-console: the strategy label of GuideLLM 0.2 / 0.3', () => {
  it('gives the strategy type and the load it was run at', () => {
    expect(parseStrategyLabel('constant@5.00')).toEqual({ strategy: 'constant', requestRate: 5 });
    expect(parseStrategyLabel('poisson@12.35')).toEqual({ strategy: 'poisson', requestRate: 12.35 });
    expect(parseStrategyLabel('concurrent@4')).toEqual({ strategy: 'concurrent', maxConcurrency: 4 });
    expect(parseStrategyLabel('synchronous')).toEqual({ strategy: 'synchronous', maxConcurrency: 1 });
    expect(parseStrategyLabel('throughput')).toEqual({ strategy: 'throughput' });
  });

  it('reads no load from the placeholders of a strategy printed without one, and no label from anything else', () => {
    expect(parseStrategyLabel('constant@#.##')).toEqual({ strategy: 'constant' });
    expect(parseStrategyLabel('concurrent@##')).toEqual({ strategy: 'concurrent' });
    for (const text of ['constant', 'concurrent@2.5', 'constant@fast', 'synchronous@1', 'sweep', '45%', '']) expect(parseStrategyLabel(text)).toBeNull();
  });
});

describe('guidellm-console: GuideLLM 0.2 / 0.3 tables', () => {
  it('joins each Stats row with the Info row of its benchmark: latency seconds to ms, counts, token totals, load', () => {
    const { records, diagnostics } = runGrammar(grammar, report([infoRows.sync, infoRows.c5a], [statsRows.sync, statsRows.c5a]));
    expect(diagnostics).toEqual([]);
    expect(runFields(records)).toEqual([
      {
        strategy: 'synchronous', max_concurrency: 1, duration_s: 30, completed: 14, incomplete: 1, failed: 0, mean_input_len: 256, mean_output_len: 128,
        total_input_tokens: 3584, total_output_tokens: 1792, request_throughput: 0.47, mean_request_concurrency: 1, output_throughput: 59.7, total_token_throughput: 179.2,
        mean_e2el_ms: 2130, median_e2el_ms: 2120, p99_e2el_ms: 2200, mean_ttft_ms: 41, median_ttft_ms: 40.2, p99_ttft_ms: 52.3,
        mean_itl_ms: 16.4, median_itl_ms: 16.3, p99_itl_ms: 16.9, mean_tpot_ms: 16.3, median_tpot_ms: 16.2, p99_tpot_ms: 16.8, client: 'guidellm',
      },
      expect.objectContaining({ strategy: 'constant', request_rate: 5, completed: 140, total_input_tokens: 35854, total_output_tokens: 17920, mean_e2el_ms: 2250, median_ttft_ms: 43.9 }),
    ]);
    expect(records.map((r) => r.kind === 'run' && [r.at.line, r.lines.completed, r.lines.median_ttft_ms, r.complete])).toEqual([
      [6, 6, 15, true],
      [7, 7, 16, true],
    ]);
  });

  it('meets rows by their label and its order, not their position: the second constant@5.00 with the second', () => {
    const { records, diagnostics } = runGrammar(grammar, report([infoRows.sync, infoRows.c5a, infoRows.c5b], [statsRows.c5a, statsRows.c5b, statsRows.sync]));
    expect(diagnostics).toEqual([]);
    expect(runFields(records).map((f) => [f.strategy, f.completed, f.request_throughput])).toEqual([
      ['synchronous', 14, 0.47],
      ['constant', 140, 4.67],
      ['constant', 142, 4.73],
    ]);
  });

  it('keeps a row of one table with no row of its benchmark in the other as a partial run, and says so', () => {
    const { records, diagnostics } = runGrammar(grammar, report([infoRows.sync, infoRows.c5a], [statsRows.sync, statsRows.c5a, statsRows.c5b]));
    expect(diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      '17 table/unmatched-row row "constant@5.00" of table "Benchmarks Stats" has no row of its benchmark in "Benchmarks Info": kept as a partial run',
    ]);
    expect(records.map((r) => r.kind === 'run' && r.complete)).toEqual([true, true, false]);
    expect(runFields(records)[2]).toMatchObject({ strategy: 'constant', request_rate: 5, request_throughput: 4.73 });
    expect(runFields(records)[2]?.completed).toBeUndefined();
  });

  it('reads request latency as seconds whatever its section says: (ms) in 0.2 and 0.3, (sec) after', () => {
    const sec = STATS.map((l) => l.replace('| Req Latency (ms)|||', '|Req Latency (sec)|||'));
    const { records } = runGrammar(grammar, table(sec, [statsRows.sync]).join('\n'));
    expect(runFields(records)[0]).toMatchObject({ mean_e2el_ms: 2130, p99_e2el_ms: 2200 });
  });

  it('says a report that ends before its Stats table, or inside one, ends there, and keeps what it has', () => {
    const infoOnly = runGrammar(grammar, table(INFO, [infoRows.sync]).join('\n'));
    expect(infoOnly.diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['1 block/truncated']);
    expect(infoOnly.records.map((r) => r.kind === 'run' && r.complete)).toEqual([false]);

    const cut = [...table(INFO, [infoRows.sync, infoRows.c5a]), '', ...STATS, statsRows.sync, statsRows.c5a.slice(0, 60)].join('\n');
    const { records, diagnostics } = runGrammar(grammar, cut);
    expect(diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      '10 block/truncated result block ends before its footer (the ==== rule closing "Benchmarks Stats"): kept as a partial run',
    ]);
    // the row cut mid-line is left out: its benchmark keeps its Info row only
    expect(runFields(records).map((f) => [f.strategy, f.completed, f.request_throughput])).toEqual([
      ['synchronous', 14, 0.47],
      ['constant', 140, undefined],
    ]);
    expect(records.every((r) => r.kind === 'run' && !r.complete)).toBe(true);
  });

  it('reports a line printed into a table, and a row with fewer cells than its columns', () => {
    const { records, diagnostics } = runGrammar(grammar, report([infoRows.sync], [statsRows.sync, ' 45%|████▌     | 9/20 [00:04<00:05,  2.10it/s]', 'constant@5.00|       4.67|       10.50']));
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['15 block/interleaved-line', '16 table/short-row', '16 table/unmatched-row']);
    expect(runFields(records).map((f) => f.strategy)).toEqual(['synchronous', 'constant']);
  });

  it('names the model of the Benchmarks Metadata section above its tables', () => {
    const metadata = ['Benchmarks Metadata:', '    Run id:0b5e', "    Worker:type_='generative_requests_worker' backend_type='openai_http' backend_model='acme/x-8b'", "    backend_info={'timeout': 300}", '    Extras:None', ''];
    const { records, diagnostics } = runGrammar(grammar, [...metadata, report([infoRows.sync], [statsRows.sync])].join('\n'));
    expect(diagnostics).toEqual([]);
    expect(runFields(records)[0]?.model).toBe('acme/x-8b');
    expect(records[0]?.kind === 'run' && records[0].lines.model).toBe(3);
    // with a server's line tee'd between the title and its details, or between two details: counted, passed over
    const log = '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK';
    const teed = [metadata[0], log, metadata[1], 'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out', ...metadata.slice(2)];
    const read = runGrammar(grammar, [...teed, report([infoRows.sync], [statsRows.sync])].join('\n'));
    expect(runFields(read.records)[0]?.model).toBe('acme/x-8b');
    expect(read.records[0]?.kind === 'run' && read.records[0].lines.model).toBe(5);
    expect(read.diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      "2 block/interleaved-line 2 interleaved lines (a server's log, a progress bar) skipped in a result block or table",
    ]);
  });
});

describe('guidellm-console: a 0.2 / 0.3 table wrapped by a narrow terminal', () => {
  /** What rich prints for `line` at `width` columns: broken at the space before a word, a word longer than the width cut. */
  function wrap(line: string, width: number): string[] {
    const pieces: string[] = [];
    let rest = line;
    while (rest.length > width) {
      const space = rest.lastIndexOf(' ', width - 1);
      const cut = /\s/.test(rest.slice(0, width)) && space > 0 ? space + 1 : width;
      pieces.push(rest.slice(0, cut).padEnd(width));
      rest = rest.slice(cut).trimStart();
    }
    return [...pieces, rest];
  }

  it('puts each line back together from its pieces and reads what it reads unwrapped', () => {
    const whole = report([infoRows.sync, infoRows.c5a], [statsRows.sync, statsRows.c5a]);
    const wrapped = whole.split('\n').flatMap((l) => wrap(l, 60)).join('\n');
    expect(wrapped.split('\n').every((l) => l.length <= 60)).toBe(true);
    const read = runGrammar(grammar, wrapped);
    expect(read.diagnostics).toEqual([]);
    expect(runFields(read.records)).toEqual(runFields(runGrammar(grammar, whole).records));
  });

  it('reads a wrapped table past a progress bar printed between its pieces, and counts it', () => {
    const wrapped = report([infoRows.sync, infoRows.c5a], [statsRows.sync, statsRows.c5a])
      .split('\n')
      .flatMap((l) => wrap(l, 60));
    const bar = ' 45%|████▌     | 9/20 [00:04<00:05,  2.10it/s]';
    const expected = runFields(runGrammar(grammar, wrapped.join('\n')).records);
    // below a section's rule, inside a wrapped header, between a row's pieces
    for (const at of [2, 4, wrapped.length - 4]) {
      const read = runGrammar(grammar, [...wrapped.slice(0, at), bar, ...wrapped.slice(at)].join('\n'));
      expect(runFields(read.records)).toEqual(expected);
      expect(read.diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual([`${at + 1} block/interleaved-line`]);
    }
  });

  it('reads no value under a header a piece of which came twice or went missing, and says so', () => {
    const lines = report([infoRows.sync, infoRows.c5a], [statsRows.sync, statsRows.c5a])
      .split('\n')
      .flatMap((l) => wrap(l, 60));
    const original = runFields(runGrammar(grammar, lines.join('\n')).records);
    // the pieces between a table's `=` rule and its `---` rule
    const pieces: number[] = [];
    let open: number[] | null = null;
    lines.forEach((l, i) => {
      if (/^=+$/.test(l.trim())) open = [];
      else if (/^-[-|]*$/.test(l.trim()) && open) {
        pieces.push(...open);
        open = null;
      } else if (l.trim() === '') open = null;
      else open?.push(i);
    });
    expect(pieces.length).toBeGreaterThan(6);
    let misaligned = 0;
    for (const i of pieces) {
      for (const changed of [[...lines.slice(0, i + 1), ...lines.slice(i)], [...lines.slice(0, i), ...lines.slice(i + 1)]]) {
        const read = runGrammar(grammar, changed.join('\n'));
        // every value a run has is the value the original's run of its benchmark has
        for (const run of runFields(read.records)) {
          const same = original.find((o) => o.strategy === run.strategy && o.max_concurrency === run.max_concurrency && o.request_rate === run.request_rate) ?? {};
          for (const [k, v] of Object.entries(run)) expect([k, v]).toEqual([k, same[k]]);
        }
        // (without the `Benchmark` column's name the table is not known as one: a syntax warning)
        const codes = read.diagnostics.map((d) => d.code);
        expect(codes.some((c) => c === 'table/misaligned-header' || c === 'parse/syntax')).toBe(true);
        if (codes.includes('table/misaligned-header')) misaligned++;
      }
    }
    expect(misaligned).toBeGreaterThan(0);
  });

  it('takes a piece holding only the last cell of a line as that line’s, and gives each cell the line it is printed on', () => {
    const rule = '='.repeat(30);
    // a section line ends in `|` with no last cell: the header's first piece is not its
    const lines = [rule, '='.repeat(9), 'Metadata   | Request Stats          |', '  Benchmark| Per Second|', 'Concurrency', '-----------|-----------|-----', '------', 'synchronous|       0.47|', '1.00', rule, '='.repeat(9)];
    const t = readBarTable(lines.map((text, i) => ({ text, line: i + 1 })));
    expect(t?.headers).toEqual([
      { section: 'Metadata', name: 'Benchmark' },
      { section: 'Request Stats', name: 'Per Second' },
      { section: 'Request Stats', name: 'Concurrency' },
    ]);
    expect(t?.rows.map((r) => r.cells)).toEqual([
      [
        { text: 'synchronous', line: 8 },
        { text: '0.47', line: 8 },
        { text: '1.00', line: 9 },
      ],
    ]);
    expect(t?.closed).toBe(true);
  });
});

describe('guidellm-console: detection of the 0.2 / 0.3 tables', () => {
  const path = asRelPath('guidellm.log');
  const score = (text: string): number => grammar.detect({ path, head: text }).score;

  it('claims them by their title above a = rule, or by their header line', () => {
    expect(score(report([infoRows.sync], [statsRows.sync]))).toBeGreaterThan(0.5);
    expect(score(['### Stats', '', 'Benchmarks Stats', '', ...table(STATS, [statsRows.sync]).slice(1)].join('\n'))).toBeGreaterThan(0.5);
    expect(score(table(STATS, [statsRows.sync]).slice(2).join('\n'))).toBeGreaterThan(0.5);
  });

  it('does not claim other text with their words', () => {
    expect(score(['Benchmarks Info:', 'NAS Parallel Benchmarks 2.3', '', 'To make a single NAS benchmark type'].join('\n'))).toBe(0);
    expect(score(['| Benchmark | Per Second | Concurrency |', '|---|---|---|', '| a | 1 | 2 |'].join('\n'))).toBe(0);
    expect(score(['============ Serving Benchmark Result ============', 'Successful requests:                     100', '=================================================='].join('\n'))).toBe(0);
  });
});
