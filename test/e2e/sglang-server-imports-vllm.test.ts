import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-sglang-imports-vllm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('an SGLang 0.4 server log, which prints the lines of the vLLM it imports', () => {
  it('is one SGLang server to the run beside it: no vLLM server whose engine disagrees', () => {
    copyFileSync(path.join(FIXTURES, 'sglang-server/layout-2025-03-imports-vllm/input.log'), path.join(tmp, 'server.log'));
    copyFileSync(path.join(FIXTURES, 'sglang-bench-serving/basic/input.txt'), path.join(tmp, 'bench.txt'));
    const scanned = scanPaths([tmp]);
    expect(scanned.files.find((f) => f.path === 'server.log')?.formats).toEqual(['sglang-server', 'launch-command']);
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(scanned.records.slice(), sink);
    expect(rows.map((r) => [r.engine, r.spec_method ?? null, r.num_spec_tokens ?? null])).toEqual([['sglang', 'none', null]]);
    expect(sink.list().filter((d) => d.code === 'config/conflict' && d.message.startsWith('engine'))).toEqual([]);
  });
});
