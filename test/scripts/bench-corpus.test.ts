import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { processFileWithin } from '../../src/pipeline/process-file.js';
import { writeDetailedResult, writeSweepLog } from '../../scripts/bench/corpus.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-bench-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench corpus', () => {
  it('writes a detailed result of the size asked, one JSON document that gives one run', () => {
    const file = path.join(dir, 'detailed.json');
    writeDetailedResult(file, 3_000_000);
    const size = statSync(file).size;
    expect(size).toBeGreaterThanOrEqual(3_000_000);
    expect(size).toBeLessThan(3_000_000 + (2 << 20));
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { itls: number[][]; max_concurrency: number };
    expect(doc.itls.length).toBeGreaterThan(1000);
    // read without its per-request arrays: within a limit below its size
    const outcome = processFileWithin(file, asRelPath('detailed.json'), true, 1_500_000);
    expect(outcome?.records.map((r) => r.record.kind === 'run' && r.record.fields.max_concurrency)).toEqual([doc.max_concurrency]);
    expect(outcome?.diagnostics).toEqual([]);
  });

  it('writes a sweep log whose every block is a run', () => {
    const file = path.join(dir, 'sweep.log');
    writeSweepLog(file, 200_000);
    const text = readFileSync(file, 'utf8');
    const blocks = text.split('Serving Benchmark Result').length - 1;
    expect(blocks).toBeGreaterThan(100);
    const outcome = processFileWithin(file, asRelPath('sweep.log'), true, Number.POSITIVE_INFINITY);
    expect(outcome?.records.filter((r) => r.record.kind === 'run')).toHaveLength(blocks);
    expect(outcome?.records.filter((r) => r.record.kind === 'config' && r.record.origin === 'bench-command')).toHaveLength(blocks);
    expect(outcome?.diagnostics).toEqual([]);
  });
});
