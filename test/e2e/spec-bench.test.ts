import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/analyze/compare.js';
import { parseFilter } from '../../src/analyze/filter.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-spec-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("Spec-Bench's answer files of one model", () => {
  it('pair each method with the vanilla file: speedup is the tokens per second over the baseline', () => {
    const dir = path.join(tmp, 'data', 'mt_bench', 'model_answer');
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(FIXTURES, 'spec-bench-jsonl/basic-mt-bench-vanilla/input.jsonl'), path.join(dir, 'vicuna-7b-v1.3-vanilla-float16-temp-0.0.jsonl'));
    copyFileSync(path.join(FIXTURES, 'spec-bench-jsonl/basic-mt-bench-eagle-crlf/input.jsonl'), path.join(dir, 'vicuna-7b-v1.3-eagle-float16-temp-0.0.jsonl'));
    const sink = new DiagnosticCollector();
    const { rows, configColumns } = buildRuns(scanPaths([path.join(tmp, 'data')]).records.slice(), sink);
    expect(rows.map((r) => [r.spec_method, r.model, r.dataset, r.completed])).toEqual([
      ['eagle', 'vicuna-7b-v1.3', 'mt-bench', 80],
      ['none', 'vicuna-7b-v1.3', 'mt-bench', 80],
    ]);
    const compared = compareRuns(rows, { baseline: parseFilter('spec_method=none'), configColumns, metrics: ['output_throughput'] });
    const eagle = compared.find((r) => r.spec_method === 'eagle');
    expect(eagle?.pair_status).toBe('ok');
    // 3582 tokens in 31.05 s against 89.55 s
    expect(eagle?.speedup_output_throughput).toBeCloseTo(89.55 / 31.05, 6);
    expect(sink.list().filter((d) => d.severity !== 'info')).toEqual([]);
  });
});
