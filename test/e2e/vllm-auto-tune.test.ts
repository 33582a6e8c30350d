import { describe, expect, it } from 'vitest';
import { runsOf } from '../helpers/runs-of.js';

const SUITE = 'fixtures/_suites/vllm-auto-tune';

describe("vLLM auto_tune.sh's output folder", () => {
  const { rows, diagnostics } = runsOf(SUITE);

  it('counts each benchmark run once: the bm_log kept, the result line merged into it', () => {
    expect(rows.map((r) => [r.source_file, r.max_num_seqs, r.max_num_batched_tokens, r.request_rate, r.auto_tune_best ?? null])).toEqual([
      ['bm_log_128_2048_requestrate_7.txt', 128, 2048, 7, false],
      ['bm_log_128_2048_requestrate_inf.txt', 128, 2048, Infinity, null],
      ['bm_log_256_2048_requestrate_inf.txt', 256, 2048, Infinity, true],
    ]);
    expect(diagnostics.filter((d) => d.includes('normalize/duplicate-run')).map((d) => d.split(':').slice(0, 2).join(':'))).toEqual(['result.txt:2', 'result.txt:3']);
  });

  it("links each run to its combination's server log, not to another's", () => {
    expect(diagnostics.filter((d) => d.includes('link/ambiguous-server'))).toEqual([]);
    for (const r of rows) {
      const own = `vllm_log_${String(r.max_num_seqs)}_${String(r.max_num_batched_tokens)}.txt`;
      expect(JSON.parse(String(r.config_sources)).some((s: string) => s.includes(own)), String(r.source_file)).toBe(true);
    }
  });
});
