import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-auto-tune-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder holding one fixture's input as `name`, read as `benchlens table` reads it. */
function folderOf(fixture: string, name: string) {
  const dir = path.join(tmp, fixture.replaceAll('/', '-'));
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(FIXTURES, fixture), path.join(dir, name));
  return buildRuns(scanPaths([dir]).records.slice(), new DiagnosticCollector());
}

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

describe('failed configurations', () => {
  it("are each combination that missed auto_tune.sh's limit, with its settings, beside the runs of those that met it", () => {
    const { rows, failedConfigurations } = folderOf('vllm-auto-tune/failed-combinations-oom/input.txt', 'result.txt');
    expect(rows).toHaveLength(2);
    expect(failedConfigurations.map((f) => [f.error_at, f.exception, f.config.max_num_seqs, f.config.max_num_batched_tokens])).toEqual([
      ['result.txt:4', 'latency-requirement-not-met', 512, 512],
      ['result.txt:5', 'latency-requirement-not-met', 512, 8192],
    ]);
  });

  it('are every failure of a file of failures alone, in a folder with no run at all', () => {
    const { rows, failedConfigurations } = folderOf('vllm-auto-tune/none-met/input.txt', 'result.txt');
    expect(rows).toHaveLength(0);
    expect(failedConfigurations.length).toBeGreaterThan(1);
    expect(new Set(failedConfigurations.map((f) => `${String(f.config.max_num_seqs)}x${String(f.config.max_num_batched_tokens)}`)).size).toBe(failedConfigurations.length);
  });

  it("are one for a combination whose server crashed and whose result line says it missed the limit: the server's, with its cause", () => {
    const dir = path.join(tmp, 'crashed-combination');
    mkdirSync(dir);
    // no combination met the limit: 32 × 2048 missed it, 64 × 2048's server ran out of memory
    copyFileSync(path.join(FIXTURES, 'vllm-auto-tune/none-met/input.txt'), path.join(dir, 'result.txt'));
    copyFileSync(path.join(FIXTURES, 'vllm-server/error-engine-core-oom/input.log'), path.join(dir, 'vllm_log_64_2048.txt'));
    const sink = new DiagnosticCollector();
    const { failedConfigurations } = buildRuns(scanPaths([dir]).records.slice(), sink);
    expect(failedConfigurations.map((f) => [f.source_file, f.exception, f.config.max_num_seqs, f.config.max_num_batched_tokens])).toEqual([
      ['result.txt', 'latency-requirement-not-met', 32, 2048],
      ['vllm_log_64_2048.txt', 'torch.OutOfMemoryError', 64, 2048],
    ]);
    expect(failedConfigurations[1]?.config_sources).toContain('failure:result.txt:3');
    expect(sink.list().filter((d) => d.code === 'link/failed-configuration').map((d) => `${d.file}:${d.line}`)).toEqual(['result.txt:2', 'vllm_log_64_2048.txt:12']);
  });

  it("leave a crashed server to its own combination: the runs of others beside it are not linked to it", () => {
    const dir = path.join(tmp, 'crashed-beside-runs');
    mkdirSync(dir);
    copyFileSync(path.join(FIXTURES, 'vllm-auto-tune/failed-combinations-oom/input.txt'), path.join(dir, 'result.txt'));
    copyFileSync(path.join(FIXTURES, 'vllm-server/error-engine-core-oom/input.log'), path.join(dir, 'vllm_log_512_8192.txt'));
    const { rows, failedConfigurations } = buildRuns(scanPaths([dir]).records.slice(), new DiagnosticCollector());
    expect(rows.map((r) => [r.max_num_seqs, r.max_num_batched_tokens, JSON.parse(String(r.config_sources)).some((s: string) => s.includes('vllm_log'))])).toEqual([
      [128, 512, false],
      [128, 8192, false],
    ]);
    expect(failedConfigurations.map((f) => [f.source_file, f.config.max_num_seqs, f.config.max_num_batched_tokens])).toEqual([
      ['vllm_log_512_8192.txt', 512, 8192],
      ['result.txt', 512, 512],
    ]);
  });

  it('include a server that crashed in a folder of logs alone', () => {
    const { failedConfigurations } = folderOf('vllm-server/error-engine-core-oom/input.log', 'serve.log');
    expect(failedConfigurations.map((f) => f.exception)).toEqual(['torch.OutOfMemoryError']);
  });
});
