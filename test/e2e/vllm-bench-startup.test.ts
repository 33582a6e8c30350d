import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-startup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RUN = JSON.parse(readFileSync(path.join(FIXTURES, 'vllm-bench-startup/layout-2026-sweep-run/input.json'), 'utf8')) as Record<string, unknown>;

/** The run with every start-up average moved by `by` seconds: another repeat of the combination. */
function shifted(by: number, runNumber: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...RUN, run_number: runNumber };
  for (const [k, v] of Object.entries(RUN)) if (k.startsWith('avg_') && typeof v === 'number') out[k] = v + by;
  return out;
}

describe('vllm bench sweep startup', () => {
  it("counts each run once though the sweep saved it in run=N.json and in its combination's summary.json", () => {
    const dir = path.join(tmp, 'sweep', 'SERVE--eager-STARTUP--default');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'run=0.json'), JSON.stringify(RUN, null, 4));
    writeFileSync(path.join(dir, 'run=1.json'), JSON.stringify(shifted(0.4, 1), null, 4));
    writeFileSync(path.join(dir, 'summary.json'), JSON.stringify([RUN, shifted(0.4, 1)], null, 4));
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(scanPaths([path.join(tmp, 'sweep')]).records.slice(), sink);
    expect(rows.map((r) => [r.run_number, r.avg_cold_startup_time_s])).toEqual([
      [0, 69.75],
      [1, 70.15],
    ]);
    expect(sink.list().filter((d) => d.code === 'normalize/duplicate-run')).toHaveLength(2);
  });

  it('keeps two repeats apart when they agree but for their run number, and two configurations apart', () => {
    const dir = path.join(tmp, 'apart');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify(RUN));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ ...RUN, run_number: 1 }));
    writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ ...RUN, run_number: 0, model: 'org/other' }));
    const { rows } = buildRuns(scanPaths([dir]).records.slice(), new DiagnosticCollector());
    expect(rows).toHaveLength(3);
  });
});
