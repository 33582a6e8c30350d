import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-genai-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (c: string): string => path.join(FIXTURES, 'genai-bench-json', c, 'input.json');

/** An experiment folder as genai-bench writes it: its metadata and one JSON per run. */
function experiment(dir: string, metadata = 'basic-experiment-metadata', runs: Record<string, string> = RUNS): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(fixture(metadata), path.join(dir, 'experiment_metadata.json'));
  for (const [name, c] of Object.entries(runs)) copyFileSync(fixture(c), path.join(dir, name));
}

const RUNS = {
  'D(100,100)_text-to-text_num_concurrency_4_time_900s.json': 'basic-deterministic-concurrency',
  'N(480,240)_(300,150)_text-to-text_num_concurrency_16_time_900s.json': 'normal-scenario-ms',
};

describe('genai-bench runs beside their experiment_metadata.json', () => {
  it('take engine, model and GPU from the metadata of their folder', () => {
    const dir = path.join(tmp, 'sglang_exp');
    experiment(dir);
    const { rows, diagnostics } = runsOf(dir);
    expect(rows.map((r) => [r.source_file, r.client, r.engine, r.engine_version, r.model, r.gpu, r.num_gpus, r.max_concurrency, r.input_len, r.mean_ttft_ms])).toEqual([
      ['D(100,100)_text-to-text_num_concurrency_4_time_900s.json', 'genai-bench', 'sglang', '0.4.6', 'meta-llama/Llama-3.1-8B-Instruct', 'H100', 2, 4, 100, 65.971],
      ['N(480,240)_(300,150)_text-to-text_num_concurrency_16_time_900s.json', 'genai-bench', 'sglang', '0.4.6', 'meta-llama/Llama-3.1-8B-Instruct', 'H100', 2, 16, 480, 244.991],
    ]);
    for (const r of rows) expect(JSON.parse(String(r.config_sources))).toContain('bench-config:experiment_metadata.json:1');
    expect(diagnostics.filter((d) => / (warning|error) /.test(d))).toEqual([]);
  });

  it('each experiment folder its own metadata', () => {
    experiment(path.join(tmp, 'campaign/a'));
    // other measurements: the same run file twice would be one run copied (normalize/duplicate-run)
    experiment(path.join(tmp, 'campaign/b'), 'metadata-crlf', {
      'U(100,200)_(200,300)_text-to-text_num_concurrency_8_time_900s.json': 'legacy-no-time-unit',
      'D(1000,200)_text-to-text_num_concurrency_2.5_time_900s.json': 'open-loop-qps',
    });
    const { rows } = runsOf(path.join(tmp, 'campaign'));
    expect(rows.map((r) => [r.source_file, r.engine, r.model, r.gpu, r.num_gpus])).toEqual([
      ['a/D(100,100)_text-to-text_num_concurrency_4_time_900s.json', 'sglang', 'meta-llama/Llama-3.1-8B-Instruct', 'H100', 2],
      ['a/N(480,240)_(300,150)_text-to-text_num_concurrency_16_time_900s.json', 'sglang', 'meta-llama/Llama-3.1-8B-Instruct', 'H100', 2],
      ['b/D(1000,200)_text-to-text_num_concurrency_2.5_time_900s.json', 'vllm', 'meta-llama/Llama-3.3-70B-Instruct', 'A100-80G', 4],
      ['b/U(100,200)_(200,300)_text-to-text_num_concurrency_8_time_900s.json', 'vllm', 'meta-llama/Llama-3.3-70B-Instruct', 'A100-80G', 4],
    ]);
  });

  it("give nothing to another tool's run beside them", () => {
    const dir = path.join(tmp, 'mixed');
    experiment(dir);
    copyFileSync(path.join(FIXTURES, 'vllm-bench-result-json', 'basic', 'input.json'), path.join(dir, 'vllm-result.json'));
    const { rows } = runsOf(dir);
    const vllm = rows.find((r) => r.source_file === 'vllm-result.json');
    expect(vllm?.model).toBe('Qwen/Qwen3-32B');
    expect(JSON.parse(String(vllm?.config_sources)).some((s: string) => s.startsWith('bench-config:'))).toBe(false);
  });
});
