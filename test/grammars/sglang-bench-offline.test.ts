import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/sglang-bench-offline/index.js';

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  return { records: grammar.parse({ path: asRelPath('o.txt'), lines }, sink) as RunRecord[], diagnostics: sink.list() };
}

describe('sglang-bench-offline', () => {
  it('reads average e2e latency in seconds as mean_e2el_ms', () => {
    const r = parse(['====== Offline Throughput Benchmark Result =======', `${'Average e2e latency (s):'.padEnd(40)} 8.01`, `${'Backend:'.padEnd(40)} engine`, '='.repeat(50)]);
    expect(r.records[0]?.fields).toMatchObject({ mean_e2el_ms: 8010, backend: 'engine', engine: 'sglang', client: 'sglang-bench-offline' });
    expect(r.diagnostics).toEqual([]);
  });

  it('reads the Nov-2024 Throughput line with its single-quoted dict', () => {
    const r = parse(['Throughput: 100.5 tokens/s', "{'run_name': 'a', 'total_latency': 2.5, 'total_output_tokens': 11, 'throughput': 100.5}"]);
    expect(r.records[0]?.fields).toMatchObject({ total_token_throughput: 100.5, duration_s: 2.5, total_output_tokens: 11, run_name: 'a' });
    expect(r.records[0]?.label).toBe('a');
  });

  it('does not claim serving-benchmark JSONL whose server_info mentions last_gen_throughput', () => {
    const head = '{"backend": "sglang", "server_info": {"internal_states": [{"last_gen_throughput": 1.0}]}, "completed": 1}';
    expect(grammar.detect({ path: asRelPath('x'), head }).score).toBe(0);
  });

  it('claims and reads the 2026 result line, last_gen_throughput written last', () => {
    const head = '{"backend": "engine", "successful_requests": 4, "total_latency": 2.0, "total_input_tokens": 40, "total_output_tokens": 20, "request_throughput": 2.0, "input_throughput": 20.0, "output_throughput": 10.0, "total_throughput": 30.0, "last_gen_throughput": 12.5}';
    expect(grammar.detect({ path: asRelPath('r.jsonl'), head }).score).toBeGreaterThan(0);
    expect(parse([head]).records[0]?.fields).toMatchObject({ completed: 4, duration_s: 2, total_token_throughput: 30, last_gen_throughput: 12.5, backend: 'engine' });
  });
});
