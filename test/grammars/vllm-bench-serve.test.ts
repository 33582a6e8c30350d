import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammar } from '../../grammars/vllm-bench-serve/index.js';
import { asRelPath } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { runFields, runGrammar } from '../helpers/grammar-run.js';

const row = (label: string, value: string, width = 40): string => `${label.padEnd(width)} ${value}`;
const block = (title = ' Serving Benchmark Result ', width = 50): string[] => {
  const pad = width - title.length;
  return [
    `${'='.repeat(Math.floor(pad / 2))}${title}${'='.repeat(Math.ceil(pad / 2))}`,
    row('Successful requests:', '10'),
    row('Benchmark duration (s):', '2.00'),
    row('Request throughput (req/s):', '5.00'),
    '='.repeat(width),
  ];
};

describe('a block whose title names its run', () => {
  it('is read, the name its label (an edited script: `==== Helion Serving Benchmark Result ====`)', () => {
    const text = ['## Notes', ...block(' Helion Serving Benchmark Result '), '', ...block(' Cutlass v2 Serving Benchmark Result ')].join('\n');
    expect(grammar.detect({ path: asRelPath('x.md'), head: text }).score).toBeGreaterThan(0);
    const { records } = runGrammar(grammar, text);
    expect(records.map((r) => r.kind === 'run' && [r.label, r.fields.completed])).toEqual([
      ['Helion', 10],
      ['Cutlass v2', 10],
    ]);
    // the standard title names nothing: the label comes from around the block
    expect(runGrammar(grammar, ['## Notes', ...block()].join('\n')).records.map((r) => r.kind === 'run' && r.label)).toEqual(['Notes']);
  });
});

describe('the model a run without --model took from the server', () => {
  it('is read from the late-2025 `Using model:` line', () => {
    const text = ['Model not specified, fetching first model from server...', 'Using model: acme/m-8b', ...block()].join('\n');
    expect(runFields(runGrammar(grammar, text).records)[0]).toMatchObject({ model: 'acme/m-8b' });
  });

  it('is the id (root) of the 2026 `First model name:` line, the name it is served under beside it', () => {
    const text = ['First model name: m8, first model id: /models/m-8b', ...block()].join('\n');
    expect(runFields(runGrammar(grammar, text).records)[0]).toMatchObject({ model: '/models/m-8b', served_model_name: 'm8' });
    const same = ['First model name: acme/m-8b, first model id: acme/m-8b', ...block()].join('\n');
    expect(runFields(runGrammar(grammar, same).records)[0]).not.toHaveProperty('served_model_name');
  });
});

describe('result lines that lost their block header', () => {
  const headless = [row('Successful requests:', '40'), row('Maximum request concurrency:', '4'), row('Benchmark duration (s):', '30.51'), row('Mean TTFT (ms):', '45.18'), '='.repeat(50)];

  it('are said, and give the next block neither their concurrency nor their heading', () => {
    const text = ['## Results on 2xA100', '', ...headless, '', '## Quoted from the issue thread', '', ...block()].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toHaveLength(1);
    expect(runFields(records)[0]).not.toHaveProperty('max_concurrency');
    expect(records[0]?.kind === 'run' ? records[0].label : null).toBe('Quoted from the issue thread');
    expect(diagnostics.map((d) => [d.code, d.line, d.severity])).toEqual([['block/headless', 3, 'warning']]);
  });

  it('are said after the last block too', () => {
    const { records, diagnostics } = runGrammar(grammar, [...block(), '', ...headless].join('\n'));
    expect(runFields(records)).toHaveLength(1);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['block/headless', 7]]);
  });

  it('leave the lines printed before a block its preamble, and a lone line of prose alone', () => {
    const text = [row('Successful requests:', 'all of them, see below'), row('Traffic request rate:', 'inf'), row('Maximum request concurrency:', '16'), ...block()].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)[0]).toMatchObject({ max_concurrency: 16 });
    expect(diagnostics).toEqual([]);
  });
});

describe('the per-position acceptance rates', () => {
  const withPositions = (...lines: string[]) =>
    ['============ Serving Benchmark Result ============', row('Successful requests:', '10'), '---------------Speculative Decoding---------------', row('Acceptance rate (%):', '70.00'), 'Per-position acceptance (%):', ...lines, '='.repeat(50)].join('\n');
  const read = (...lines: string[]) => {
    const { records, diagnostics } = runGrammar(grammar, withPositions(...lines));
    return { list: runFields(records)[0]?.spec_per_position_acceptance, said: diagnostics.map((d) => `${d.code} ${d.message}`) };
  };

  it('are listed by the position each line names', () => {
    expect(read(row('  Position 1:', '71.43'), row('  Position 0:', '86.20'))).toEqual({ list: [0.862, 0.7143], said: [] });
  });

  it('stop at a missing position, with a warning: a later rate is never given an earlier position', () => {
    expect(read(row('  Position 0:', '86.20'), row('  Position 1:', '71.43'), row('  Position 3:', '54.32'))).toEqual({
      list: [0.862, 0.7143],
      said: ['block/position-gap per-position acceptance has no rate for position 2: 1 rate of later positions left out'],
    });
    expect(read(row('  Position 1:', '71.43'), row('  Position 2:', '63.05'))).toEqual({
      list: undefined,
      said: ['block/position-gap per-position acceptance has no rate for position 0: 2 rates of later positions left out, and the list with them'],
    });
  });

  it('take a garbled position number in stride (it once made a list of a hundred million holes)', () => {
    expect(read(row('  Position 0:', '86.20'), row('  Position 99999999:', '71.43')).list).toEqual([0.862]);
  });
});

describe("the Rust client's steady-state section", () => {
  const section = [
    '============ Steady-State Metrics =============',
    row('Concurrency threshold:', '>= 0.90 * 8 = 8', 35),
    row('Window:', '0.5s -> 1.8s  (1.3s)', 35),
    row('Requests started in window:', '6 / 10 (60.0%)', 35),
    '-----------------------------------------------',
    row('Request throughput (req/s):', '4.62', 35),
    '===============================================',
  ];

  it('goes to the run of the block above it, not to the next one', () => {
    const text = [...block(), ...section, ...block()].join('\n');
    const [first, second] = runFields(runGrammar(grammar, text).records);
    expect(first).toMatchObject({ request_throughput: 5, steady_state_request_throughput: 4.62, steady_state_start_s: 0.5, steady_state_requests_total: 10 });
    expect(Object.keys(second ?? {}).filter((k) => k.startsWith('steady_state'))).toEqual([]);
  });

  it('is read across blank lines and text, at most three in a row, and other processes\' lines, however many', () => {
    const whole = runFields(runGrammar(grammar, [...block(), ...section].join('\n')).records);
    const server = '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK';
    const forked = [
      'huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...',
      'To disable this warning, you can either:',
      '\t- Avoid using `tokenizers` before the fork if possible',
      '\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)',
    ];
    for (const gap of [[''], [server], ['', server, 'Some text of the client'], forked, ['', server, server, server, server, 'text', '']]) {
      // under the footer, under the title, between two values, around a rule
      for (const at of [0, 1, 2, 4, 5]) {
        const text = [...block(), ...section.slice(0, at), ...gap, ...section.slice(at)].join('\n');
        expect(runFields(runGrammar(grammar, text).records), `${gap.length} at ${at}`).toEqual(whole);
      }
    }
    for (const gap of [['', '', '', ''], ['', server, 'text', 'more', '']]) {
      const text = [...block(), ...section.slice(0, 2), ...gap, ...section.slice(2)].join('\n');
      expect(runFields(runGrammar(grammar, text).records)[0]).not.toHaveProperty('steady_state_start_s');
    }
  });

  it('is not read from a warning alone, and a value it cannot read is said', () => {
    const warned = [...block(), 'Warning: steady-state window is 1.3s (65.0% of run); may not be representative', 'Traffic request rate: 4.0', ...block()].join('\n');
    for (const fields of runFields(runGrammar(grammar, warned).records)) expect(Object.keys(fields).some((k) => k.startsWith('steady_state'))).toBe(false);
    const bad = [...block(), ...section.map((l) => l.replace('0.5s -> 1.8s', '0.5 to 1.8'))].join('\n');
    const { records, diagnostics } = runGrammar(grammar, bad);
    expect(runFields(records)[0]).not.toHaveProperty('steady_state_start_s');
    expect(diagnostics.map((d) => d.code)).toEqual(['block/bad-value']);
  });
});

const PRINTED = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/layout-2026-rust-multi-turn/input.txt'), 'utf8');

describe("the Rust vllm-bench's Multi-Turn Benchmark Result block", () => {
  it('counts the conversations that did not complete as failed, and reads no turn label as a duplicate', () => {
    const text = PRINTED.replace(/^(Conversations completed\/total:\s+)16\/16/m, '$114/16');
    const { records, diagnostics } = runGrammar(grammar, text);
    const fields = runFields(records)[0];
    expect(fields).toMatchObject({ conversations_completed: 14, conversations_failed: 2, completed: 48, max_concurrency: 8, multi_turn: true });
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('gives no list a turn cut short lacks a value of, and says how many values are no columns', () => {
    // the block cut inside its third turn, before its TTFT section (the client killed)
    const lines = PRINTED.split('\n');
    const cut = lines.findIndex((l, i) => i > lines.findIndex((m) => m.includes('Turn 3')) && l.startsWith('Mean TTFT'));
    const { records, diagnostics } = runGrammar(grammar, lines.slice(0, cut).join('\n'));
    const fields = runFields(records)[0] ?? {};
    expect(fields.per_turn_total_input_tokens).toEqual([10240, 20480, 30720]);
    expect(fields).not.toHaveProperty('per_turn_mean_ttft_ms');
    expect(fields.mean_ttft_ms).toBe(88.41);
    expect(diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['block/truncated', 'parse/per-turn-values']));
  });
});
