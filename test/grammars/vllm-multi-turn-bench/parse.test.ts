import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/vllm-multi-turn-bench/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const detect = (head: string) => grammar.detect({ path: asRelPath('x.log'), head }).score;
const SEP = '-'.repeat(100);

const SUMMARY = [
  'Statistics summary:',
  'runtime_sec = 30.000',
  'requests_per_sec = 2.000',
  SEP,
  '                  count    mean    std    min    25%    50%    75%    90%     max',
  'ttft_ms            60.0   50.25   9.10  31.02  44.50  49.75  55.60  62.33   80.41',
  'tpot_ms            60.0   10.40   0.52   9.51  10.02  10.33  10.71  11.12   12.08',
  'latency_ms         60.0  1080.5  90.27  880.1  1015.2  1077.9  1140.4  1201.6  1330.2',
  SEP,
];

/** pandas' wrapped layout (`display.width` exceeded with no column limit): two chunks, the index repeated. */
const WRAPPED = [
  'Statistics summary:',
  'runtime_sec = 215.810',
  'requests_per_sec = 0.769',
  SEP,
  '                   count     mean     std      min      25%      50%  \\',
  'ttft_ms            166.0    78.22   67.63    45.91    59.94    62.26   ',
  'output_num_tokens  166.0   100.01   11.80    80.00    91.00    99.00   ',
  '',
  '                       75%      90%      99%      max  ',
  'ttft_ms              64.43    69.66   353.18   567.54  ',
  'output_num_tokens   109.75   116.00   120.00   120.00  ',
  SEP,
];

describe('vllm-multi-turn-bench', () => {
  it('detects the summary with its runtime line, or the logged arguments; not a bare title', () => {
    expect(detect(SUMMARY.join('\n'))).toBeGreaterThan(0.5);
    expect(detect('Statistics summary (assuming 50% warmup samples):\nruntime_sec = 1.000\n')).toBeGreaterThan(0.5);
    const args = "01-01-2026 10:00:00 [INFO] - Namespace(input_file='a.json', model='m', num_clients=2, max_active_conversations=None, warmup_percentages='0%')";
    expect(detect(args)).toBe(0.5);
    expect(detect('Statistics summary:\nall good\n')).toBe(0);
    expect(detect('Statistics summary: 3 runs, runtime_sec = 4')).toBe(0);
  });

  it('reads the runtime, the count of successful requests and every statistic under its column', () => {
    const { records, diagnostics } = runGrammar(grammar, SUMMARY.join('\n'));
    expect(diagnostics).toEqual([]);
    expect(runFields(records)[0]).toMatchObject({
      client: 'vllm-multi-turn-bench',
      multi_turn: true,
      completed: 60,
      duration_s: 30,
      request_throughput: 2,
      mean_ttft_ms: 50.25,
      median_ttft_ms: 49.75,
      p90_tpot_ms: 11.12,
      max_e2el_ms: 1330.2,
    });
  });

  it('joins the chunks of a wrapped table by row name', () => {
    const { records, diagnostics } = runGrammar(grammar, WRAPPED.join('\n'));
    expect(diagnostics).toEqual([]);
    expect(runFields(records)[0]).toMatchObject({ min_ttft_ms: 45.91, median_ttft_ms: 62.26, p75_ttft_ms: 64.43, p99_ttft_ms: 353.18, max_output_len: 120, mean_output_len: 100.01 });
  });

  it('gives each invocation its own logged configuration: per-client rate, served name, clients as concurrency', () => {
    const ns = (clients: number, rate: string) =>
      `23-11-2025 10:00:00 [INFO] - Namespace(input_file='c.json', output_file=None, seed=0, model='/m/llama', served_model_name='Llama', num_clients=${clients}, max_active_conversations=None, request_rate=${rate}, conversation_sampling=<ConversationSampling.RANDOM: 'random'>, warmup_percentages='0%')`;
    const text = [ns(2, '0.5'), '23-11-2025 10:00:00 [INFO] - Input parameters:', ...SUMMARY, ns(4, '0'), ...SUMMARY].join('\n');
    const runs = runFields(runGrammar(grammar, text).records);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ model: '/m/llama', served_model_name: 'Llama', max_concurrency: 2, max_active_conversations: 2, request_rate_per_client: 0.5, conversation_sampling: 'random' });
    expect(runs[1]).toMatchObject({ max_concurrency: 4, max_active_conversations: 4 });
    expect(runs[1]).not.toHaveProperty('request_rate_per_client');
    expect(runs[0]).not.toHaveProperty('request_rate');
  });

  it('keeps a summary cut before its table as a partial run, with a warning', () => {
    const { records, diagnostics } = runGrammar(grammar, SUMMARY.slice(0, 3).join('\n'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ complete: false, fields: { duration_s: 30 } });
    expect(diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
  });

  it('reads a describe table whose lines went through the logger', () => {
    const text = SUMMARY.map((l) => `23-11-2025 10:00:00 [INFO] - ${l}`).join('\n');
    expect(runFields(runGrammar(grammar, text).records)[0]).toMatchObject({ completed: 60, p25_e2el_ms: 1015.2 });
  });

  it("takes the server's version and the max_model_len of the model it serves from get_server_info's lines", () => {
    const log = (l: string) => `23-11-2025 10:00:00 [INFO] - ${l}`;
    const head = [
      "Namespace(input_file='c.json', model='/m/llama', served_model_name='Llama', num_clients=2, max_active_conversations=2, warmup_percentages='0%')",
      'Server version: {"version":"0.11.1rc2.dev5+g1234abcd"}',
      'Models:',
      "\tmodel_id='Llama', max_model_len=131072",
      "\tmodel_id='Llama-lora', max_model_len=8192",
    ].map(log);
    const run = runFields(runGrammar(grammar, [...head, ...SUMMARY].join('\n')).records)[0];
    expect(run).toMatchObject({ engine_version: '0.11.1rc2.dev5+g1234abcd', max_model_len: 131072 });
    // another server's /version text, a model stating no length, or none of the run's name: no column
    const other = [head[0], log('Server version: 2.4.1'), log("\tmodel_id='Mistral', max_model_len='N/A'"), log("\tmodel_id='Qwen', max_model_len=4096")] as string[];
    const bare = runFields(runGrammar(grammar, [...other, ...SUMMARY].join('\n')).records)[0];
    expect(bare).not.toHaveProperty('engine_version');
    expect(bare).not.toHaveProperty('max_model_len');
  });
});

describe('vllm-multi-turn-bench summary with blank lines written into its first lines', () => {
  it('is detected and read as without them, whichever of its lines above the table they follow', () => {
    const clean = runFields(runGrammar(grammar, SUMMARY.join('\n')).records);
    expect(clean).toHaveLength(1);
    for (let i = 0; i < 4; i++) {
      for (const blanks of [[''], ['', '', '']]) {
        const text = [...SUMMARY.slice(0, i + 1), ...blanks, ...SUMMARY.slice(i + 1)].join('\n');
        expect(detect(text), `after line ${i + 1}`).toBeGreaterThan(0);
        const { records, diagnostics } = runGrammar(grammar, text);
        expect(runFields(records), `after line ${i + 1}`).toEqual(clean);
        expect(diagnostics.filter((d) => d.severity !== 'info'), `after line ${i + 1}`).toEqual([]);
      }
    }
  });
});

describe('vllm-multi-turn-bench summary with lines of text written into it', () => {
  const clean = runFields(runGrammar(grammar, SUMMARY.join('\n')).records);
  const codes = (text: string) => runGrammar(grammar, text).diagnostics.map((d) => `${d.code}@${d.line}`);

  it('is detected and read as without them, whichever of its lines they follow, a line with digits with a warning', () => {
    for (let i = 0; i < SUMMARY.length - 1; i++) {
      for (const written of [['the server restarted'], ['one', 'two', 'three'], ['seed 42 used']]) {
        const text = [...SUMMARY.slice(0, i + 1), ...written, ...SUMMARY.slice(i + 1)].join('\n');
        expect(detect(text), `after line ${i + 1}`).toBeGreaterThan(0);
        expect(runFields(runGrammar(grammar, text).records), `after line ${i + 1}`).toEqual(clean);
        const code = written[0] === 'seed 42 used' ? 'block/numbers-in-gap' : 'block/gap-line';
        expect(codes(text), `after line ${i + 1}`).toEqual([`${code}@${i + 2}`]);
      }
    }
  });

  it('reads across them in a wrapped table, between its chunks too', () => {
    const wrapped = runFields(runGrammar(grammar, WRAPPED.join('\n')).records);
    const text = [...WRAPPED.slice(0, 6), 'a line of text', ...WRAPPED.slice(6, 8), 'another', ...WRAPPED.slice(8)].join('\n');
    expect(runFields(runGrammar(grammar, text).records)).toEqual(wrapped);
  });

  it('ends a summary at more than three of them, at an invocation, or at its closing separator', () => {
    const cut = [...SUMMARY.slice(0, 6), 'one', 'two', 'three', 'four', ...SUMMARY.slice(6)].join('\n');
    const run = runFields(runGrammar(grammar, cut).records)[0];
    expect(run).toHaveProperty('mean_ttft_ms', 50.25);
    expect(run).not.toHaveProperty('mean_tpot_ms');
    const invocation = [...SUMMARY.slice(0, 6), "Namespace(model='m')", ...SUMMARY.slice(6)].join('\n');
    expect(runFields(runGrammar(grammar, invocation).records)[0]).not.toHaveProperty('mean_tpot_ms');
    // a text line after the summary, and a row-like line below it, are no summary's
    const after = [...SUMMARY, 'done', 'extra_ms 1.0 2.0'].join('\n');
    expect(runFields(runGrammar(grammar, after).records)).toEqual(clean);
    expect(codes(after)).toEqual([]);
  });
});
