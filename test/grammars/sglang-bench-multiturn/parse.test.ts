import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/sglang-bench-multiturn/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const detect = (head: string) => grammar.detect({ path: asRelPath('x.log'), head }).score;

const OLD = [
  'All requests completed',
  'Performance metrics summary:',
  '  Total requests: 1280 at 16 requests per second',
  '  Average TTFT: 4.87',
  '  P90 TTFT: 7.02',
  '  Median TTFT: 5.11',
  '  Average latency: 9.64',
  '  P90 latency: 11.20',
  '  Median latency: 9.81',
  '  Throughput: 2.91 requests per second',
];

const ROUNDS = [
  'Performance metrics summary:',
  '  Total requests: 64 at 1.0 requests per second',
  '  Average Prompt Length: 1536.00 tokens',
  '  Average TTFT: 0.30',
  '  Input token throughput: 2000.00 tokens per second',
  '  Request Throughput: 1.30 requests per second',
  '  Cache Hit Rate: 0.500000',
  'Per-round metrics:',
];

const SAVED = '{"timestamp": "2026-01-01T00:00:00", "tag": "", "summary": {"total_requests": 2, "request_rate": 1.0, "average_ttft": 0.5, "throughput": 0.25, "cache_hit_rate": 0.25}}';

describe('sglang-bench-multiturn', () => {
  it('detects the summary with its "at R requests per second" line, the start line, or the --log-file JSONL', () => {
    expect(detect(OLD.join('\n'))).toBeGreaterThan(0.5);
    expect(detect(`2025-02-10 08:15:02 Performance metrics summary:\n2025-02-10 08:15:02   Total requests: 3 at 2.0 requests per second\n`)).toBeGreaterThan(0.5);
    expect(detect('Auto-running with different request rates...\n 10%|█ | 1/10\n')).toBe(0.5);
    expect(detect(SAVED)).toBe(0.8);
    // bench_long_context.py: the same title, no request rate
    expect(detect('Performance metrics summary:\n  Total requests: 24\n  Average TTFT: 1.00\n')).toBe(0);
    expect(detect('echo "Auto-running with different request rates..."\n')).toBe(0);
    expect(detect('{"summary": "Performance metrics summary:", "total_requests": 3}')).toBe(0);
  });

  it('reads the 2024 layout: seconds as ms, the rate from the Total requests line', () => {
    const { records, diagnostics } = runGrammar(grammar, OLD.join('\n'));
    expect(diagnostics).toEqual([]);
    expect(runFields(records)).toEqual([
      {
        completed: 1280, request_rate: 16, mean_ttft_ms: 4870, p90_ttft_ms: 7020, median_ttft_ms: 5110, mean_e2el_ms: 9640, p90_e2el_ms: 11200, median_e2el_ms: 9810,
        request_throughput: 2.91, multi_turn: true, client: 'sglang-bench-multiturn',
      },
    ]);
  });

  it('says the per-round lines were cut when its rounds hold fewer requests than the run', () => {
    const round = (k: number) => `  Round ${k}: Average TTFT = 0.3${k}s, Cache Hit Rate = 0.${k}00000 (32 requests, 32 clients)`;
    const whole = runGrammar(grammar, [...ROUNDS, round(0), round(1)].join('\n'));
    expect(whole.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    // the list cut after its first round: 32 of the run's 64 requests
    const cut = runGrammar(grammar, [...ROUNDS, round(0)].join('\n'));
    expect(cut.diagnostics.map((d) => `${d.code} ${d.message}`)).toContain('block/truncated result block ends before its footer (its per-round lines (rounds of 32 of its 64 requests)): kept as a partial run');
    expect(cut.records[0]).toMatchObject({ complete: false });
  });

  it('reads each round as a per_turn list; a round with no request leaves out the zeros it prints for none', () => {
    const text = [...ROUNDS, '  Round 0: Average TTFT = 0.40s, Cache Hit Rate = 0.000000 (64 requests, 64 clients)', '  Round 1: Average TTFT = 0.00s, Cache Hit Rate = 0.000000 (0 requests, 10 clients)'];
    const { records, diagnostics } = runGrammar(grammar, text.join('\n'));
    const fields = runFields(records)[0] as Record<string, unknown>;
    expect(fields).toMatchObject({ per_turn_completed: [64, 0], per_turn_clients: [64, 10], prefix_cache_hit_rate: 0.5, input_throughput: 2000, mean_input_len: 1536 });
    expect(fields).not.toHaveProperty('per_turn_mean_ttft_ms');
    expect(fields).not.toHaveProperty('per_turn_prefix_cache_hit_rate');
    expect(diagnostics.map((d) => d.code)).toEqual(['parse/per-turn-values']);
  });

  it('says a per-round title with no rounds after it was cut, and a summary cut before its last line', () => {
    const cut = runGrammar(grammar, ROUNDS.join('\n'));
    expect(cut.diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
    expect(cut.records[0]).toMatchObject({ complete: false });
    const early = runGrammar(grammar, OLD.slice(0, 6).join('\n'));
    expect(early.diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
    // the last line, where the file ends, may be cut inside its number: left out
    expect(runFields(early.records)[0]).not.toHaveProperty('median_ttft_ms');
    expect(runFields(early.records)[0]).toMatchObject({ p90_ttft_ms: 7020 });
  });

  it('keeps an unknown summary line under its own name, and says a value that is not a number', () => {
    const text = [...OLD.slice(1, 3), '  Total Widgets: 12', '  Average TTFT: n/a', ...OLD.slice(4)];
    const { records, diagnostics } = runGrammar(grammar, text.join('\n'));
    expect(runFields(records)[0]).toMatchObject({ total_widgets: 12 });
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['block/bad-value', 'table/unknown-metric']);
  });

  it('reads the --log-file JSONL with the same columns, full precision, its tag as the label', () => {
    const line = SAVED.replace('"tag": ""', '"tag": "hicache"');
    const { records, diagnostics } = runGrammar(grammar, `${line}\n{"timestamp": "x"}`);
    expect(diagnostics.map((d) => d.code)).toEqual(['json/not-a-result']);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ label: 'hicache', fields: { completed: 2, request_rate: 1, mean_ttft_ms: 500, request_throughput: 0.25, prefix_cache_hit_rate: 0.25, multi_turn: true } });
  });
});
