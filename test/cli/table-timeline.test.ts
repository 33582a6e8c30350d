import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

const basic = path.join(FIXTURES, 'vllm-server/basic');

describe('benchlens table --timeline (built binary)', () => {
  it('writes one row per server stats line with the schema §2 columns first', () => {
    const r = runCli(['table', basic, '--timeline', '--format', 'json']);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0] ?? {}).slice(0, 12)).toEqual([
      'source_file', 'source_line', 'engine', 'time', 'prompt_throughput', 'gen_throughput', 'running', 'waiting',
      'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length',
    ]);
    expect(rows.map((x) => [x.source_file, x.source_line, x.time, x.gen_throughput, x.spec_acceptance_rate])).toEqual([
      ['input.log', 20, '2000-06-03T09:16:01', 311.7, 0.468],
      ['input.log', 23, '2000-06-03T09:16:11', 402.3, 0.506],
      ['input.log', 25, '2000-06-03T09:16:21', 0, null],
    ]);
    expect(rows[0]?.spec_per_position_acceptance).toEqual([0.781, 0.552, 0.338, 0.199]);
    expect(r.stderr).toContain('3 timeline rows');
  });

  it('exits 1 on a log with a crash and names the exception on stderr', () => {
    const r = runCli(['table', path.join(FIXTURES, 'vllm-server/error-engine-core-oom'), '--timeline', '--format', 'csv']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('error log/crash crash: torch.OutOfMemoryError: "CUDA out of memory.');
    expect(r.stdout).toBe('');
  });
});
