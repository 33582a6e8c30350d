import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-inference-perf-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RATE_STAGES = ['basic-constant-stage', 'non-streaming-null-latencies'];

/** A report folder as inference-perf leaves it: its config and two stage reports (the fixtures' JSON). */
function reportFolder(dir: string, config: string, configName = 'config.yaml', stagesUnder = '.', stages = RATE_STAGES): void {
  mkdirSync(path.join(dir, stagesUnder), { recursive: true });
  copyFileSync(path.join(FIXTURES, 'inference-perf-config', config, 'input.yaml'), path.join(dir, configName));
  stages.forEach((s, i) => copyFileSync(path.join(FIXTURES, 'inference-perf-json', s, 'input.json'), path.join(dir, stagesUnder, `stage_${i}_lifecycle_metrics.json`)));
}

describe('inference-perf stage reports beside the run config', () => {
  it('take engine, model and dataset from the config.yaml of their folder', () => {
    const dir = path.join(tmp, 'bundle');
    reportFolder(dir, 'basic-user-config');
    const { rows, diagnostics } = runsOf(dir);
    expect(rows.map((r) => [r.source_file, r.stage_id, r.client, r.engine, r.model, r.dataset, r.endpoint_type, r.input_len])).toEqual([
      ['stage_0_lifecycle_metrics.json', 0, 'inference-perf', 'vllm', 'meta-llama/Llama-3.1-8B-Instruct', 'synthetic', 'chat', 1000],
      ['stage_1_lifecycle_metrics.json', 1, 'inference-perf', 'vllm', 'meta-llama/Llama-3.1-8B-Instruct', 'synthetic', 'chat', 1000],
    ]);
    for (const r of rows) expect(JSON.parse(String(r.config_sources))).toContain('bench-config:config.yaml:2');
    // each stage keeps its own load: the config's stages are not copied onto it
    expect(rows.map((r) => r.request_rate)).toEqual([10, 4]);
    expect(diagnostics.filter((d) => / (warning|error) /.test(d))).toEqual([]);
  });

  it('take the config one folder up (config.yaml beside a results/ folder), each experiment its own', () => {
    reportFolder(path.join(tmp, 'campaign/llama-vllm'), 'basic-user-config', 'config.yaml', 'results');
    // other measurements: the same report twice would be one run copied (normalize/duplicate-run)
    reportFolder(path.join(tmp, 'campaign/qwen-sglang'), 'resolved-report-bundle', 'config.yml', 'results', ['concurrent-stage-goodput', 'v0-schedule-accuracy']);
    const { rows } = runsOf(path.join(tmp, 'campaign'));
    expect(rows.map((r) => [r.source_file, r.engine, r.model, r.dataset, JSON.parse(String(r.config_sources)).find((s: string) => s.startsWith('bench-config:'))])).toEqual([
      ['llama-vllm/results/stage_0_lifecycle_metrics.json', 'vllm', 'meta-llama/Llama-3.1-8B-Instruct', 'synthetic', 'bench-config:llama-vllm/config.yaml:2'],
      ['llama-vllm/results/stage_1_lifecycle_metrics.json', 'vllm', 'meta-llama/Llama-3.1-8B-Instruct', 'synthetic', 'bench-config:llama-vllm/config.yaml:2'],
      ['qwen-sglang/results/stage_0_lifecycle_metrics.json', 'sglang', 'Qwen/Qwen2.5-7B-Instruct', 'sharegpt', 'bench-config:qwen-sglang/config.yml:1'],
      ['qwen-sglang/results/stage_1_lifecycle_metrics.json', 'sglang', 'Qwen/Qwen2.5-7B-Instruct', 'sharegpt', 'bench-config:qwen-sglang/config.yml:1'],
    ]);
  });

  it("give nothing to another tool's runs beside them, and yield to the server log", () => {
    const dir = path.join(tmp, 'mixed');
    reportFolder(dir, 'basic-user-config');
    // a vLLM result of another model in the same folder: the inference-perf config is not its
    copyFileSync(path.join(FIXTURES, 'vllm-bench-result-json', 'basic', 'input.json'), path.join(dir, 'vllm-result.json'));
    const { rows } = runsOf(dir);
    const vllm = rows.find((r) => r.source_file === 'vllm-result.json');
    expect(vllm?.model).toBe('Qwen/Qwen3-32B');
    expect(vllm?.dataset ?? null).not.toBe('synthetic');
    expect(JSON.parse(String(vllm?.config_sources)).some((s: string) => s.startsWith('bench-config:'))).toBe(false);
  });
});
