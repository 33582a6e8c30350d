import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/analyze/compare.js';
import { parseFilter } from '../../../src/analyze/filter.js';
import { DiagnosticCollector, formatDiagnostic } from '../../../src/core/diagnostic.js';
import { buildRuns } from '../../../src/normalize/build-runs.js';
import { scanPaths } from '../../../src/pipeline/scan.js';

/** bench_speculative.py's output for `--batch-size 1 8 --steps 0 3 5 --topk 0 1 --num_draft_tokens 0 4 6`. */
const GRID = [
  [1, 0, 0, 0, 1.0, 0.00621, 160.906],
  [1, 3, 1, 4, 3.127, 0.00792, 394.669],
  [1, 5, 1, 4, 3.412, 0.00913, 373.529],
  [1, 5, 1, 6, 3.895, 0.00999, 389.991],
  [8, 0, 0, 0, 1.0, 0.00742, 134.706],
  [8, 3, 1, 4, 3.087, 0.01188, 259.844],
  [8, 5, 1, 4, 3.371, 0.01436, 234.752],
  [8, 5, 1, 6, 3.846, 0.01634, 235.39],
] as const;

const tmp = mkdtempSync(path.join(tmpdir(), 'bench-speculative-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function folder(): string {
  const dir = mkdtempSync(path.join(tmp, 'sweep-'));
  const text = GRID.map(([batch_size, steps, topk, num_draft_tokens, acc_length, step_time, speed]) =>
    JSON.stringify({ batch_size, steps, topk, num_draft_tokens, acc_length, step_time, speed, completion_tokens: 512.0 }),
  ).join('\n');
  writeFileSync(path.join(dir, 'output.jsonl'), `${text}\n`);
  return dir;
}

describe('bench_speculative.py JSONL through the runs table and compare', () => {
  const scanned = scanPaths([folder()]);
  const sink = new DiagnosticCollector();
  const built = buildRuns(scanned.records.slice(), sink);
  const pairs = compareRuns(built.rows, { baseline: parseFilter('spec_method=none'), configColumns: built.configColumns, sink });

  it('gives one run per line, read by this grammar only', () => {
    expect(built.rows).toHaveLength(GRID.length);
    expect(new Set(built.rows.map((r) => r.source_format))).toEqual(new Set(['sglang-bench-speculative-jsonl']));
    expect(sink.list().filter((d) => d.severity !== 'info').map(formatDiagnostic)).toEqual([]);
  });

  it('pairs every K with the baseline of its own batch size', () => {
    expect(pairs).toHaveLength(6);
    for (const p of pairs) {
      expect(p.pair_status).toBe('ok');
      const grid = GRID.find((g) => g[0] === p.batch_size && g[3] === p.num_spec_tokens && g[1] === p.spec_num_steps);
      const base = GRID.find((g) => g[0] === p.batch_size && g[1] === 0);
      if (!grid || !base) throw new Error(`no grid point for ${JSON.stringify(p)}`);
      expect(p.max_concurrency).toBe(p.batch_size);
      // the batch's throughput is the per-sequence speed times the batch: their ratio is the speeds'
      expect(p.speedup_output_throughput).toBeCloseTo(grid[6] / base[6], 5);
      expect(p.spec_acceptance_length).toBe(grid[4]);
    }
  });

  it('shows where speculation stops paying: every K wins at batch 1, the speedup falls at batch 8', () => {
    const at = (bs: number) => pairs.filter((p) => p.batch_size === bs).map((p) => Number(p.speedup_output_throughput));
    expect(Math.min(...at(1))).toBeGreaterThan(2);
    expect(Math.max(...at(8))).toBeLessThan(Math.min(...at(1)));
  });
});
