import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/vllm-bench-result-json/index.js';
import { formatDiagnostic } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { scanPaths } from '../../../src/pipeline/scan.js';
import { FIXTURES } from '../../helpers/fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-pytorch-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("vLLM's PyTorch-benchmark-format copies of a result", () => {
  it('are claimed by their records, not by their name, and a result with such a key is still a result', () => {
    const head = readFileSync(path.join(FIXTURES, 'vllm-bench-result-json/pytorch-copy-serve/input.json'), 'utf8');
    expect(grammar.detect({ path: asRelPath('copy.json'), head }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path: asRelPath('x.pytorch.json'), head: '{"model_id": "m", "benchmark_values": [1]}' }).reason).toMatch(/model_id/);
  });

  it('count as the result written with them, named, whatever the benchmark (serve, latency)', () => {
    for (const [fixture, result, copy] of [
      ['vllm-bench-result-json/basic/input.json', 'serve-c8.json', 'serve-c8.pytorch.json'],
      ['vllm-bench-latency/output-json/input.json', 'latency-bs8.json', 'latency-bs8.pytorch.json'],
    ] as const) {
      copyFileSync(path.join(FIXTURES, fixture), path.join(dir, result));
      const kind = result.startsWith('serve') ? 'serve' : 'latency';
      copyFileSync(path.join(FIXTURES, `vllm-bench-result-json/pytorch-copy-${kind}/input.json`), path.join(dir, copy));
    }
    const scanned = scanPaths([dir]);
    expect(scanned.files.map((f) => [f.path, f.status, f.runs])).toEqual([
      ['latency-bs8.json', 'parsed', 1],
      ['latency-bs8.pytorch.json', 'parsed', 0],
      ['serve-c8.json', 'parsed', 1],
      ['serve-c8.pytorch.json', 'parsed', 0],
    ]);
    expect(scanned.diagnostics.map(formatDiagnostic).filter((d) => d.includes('pytorch-copy'))).toEqual([
      `latency-bs8.pytorch.json:1:1: info json/pytorch-copy vLLM's copy of a benchmark result in the PyTorch benchmark format (1 metric record, SAVE_TO_PYTORCH_BENCHMARK_FORMAT): not read as a run, its values are those of "latency-bs8.json" written with it`,
      `serve-c8.pytorch.json:1:1: info json/pytorch-copy vLLM's copy of a benchmark result in the PyTorch benchmark format (12 metric records, SAVE_TO_PYTORCH_BENCHMARK_FORMAT): not read as a run, its values are those of "serve-c8.json" written with it`,
    ]);
  });
});
