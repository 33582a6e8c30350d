import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-sglang-multiturn-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (c: string, file: string): string => path.join(FIXTURES, 'sglang-bench-multiturn', c, file);

describe("SGLang's bench_multiturn.py: its console and the --log-file JSONL it appends to", () => {
  it('count a run printed and saved once (the JSONL copy, with what only the console has), the other saved run apart', () => {
    // hicache off, then on: the console of the second tee'd beside the JSONL of both
    const dir = path.join(tmp, 'hicache');
    mkdirSync(dir);
    copyFileSync(fixture('basic', 'input.log'), path.join(dir, 'bench-hicache-on.log'));
    copyFileSync(fixture('log-file-jsonl', 'input.jsonl'), path.join(dir, 'performance_metrics.jsonl'));
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(scanPaths([dir]).records.slice(), sink);
    expect(rows.map((r) => [r.source_file, r.label, r.completed, r.per_turn_clients ?? null])).toEqual([
      ['performance_metrics.jsonl', 'hicache-on', 96, [32, 32, 32]],
      ['performance_metrics.jsonl', 'hicache-off', 96, null],
    ]);
    expect(sink.list().filter((d) => d.code === 'normalize/duplicate-run').map((d) => `${d.file}:${d.line}`)).toEqual(['bench-hicache-on.log:10']);
  });

  it('keeps apart a printed run and a saved one that differ beyond the printed precision', () => {
    const dir = path.join(tmp, 'apart');
    mkdirSync(dir);
    copyFileSync(fixture('basic', 'input.log'), path.join(dir, 'bench.log'));
    // the hicache-off line alone: same request count and rate, other numbers
    const { rows } = buildRuns(scanPaths([path.join(FIXTURES, 'sglang-bench-multiturn/log-file-jsonl'), dir]).records.slice(), new DiagnosticCollector());
    expect(rows.filter((r) => r.client === 'sglang-bench-multiturn')).toHaveLength(3);
  });
});
