import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { buildRuns } from '../../../src/normalize/build-runs.js';
import { timelineTable } from '../../../src/normalize/timeline-table.js';
import { scanPaths } from '../../../src/pipeline/scan.js';

/**
 * One `trtllm-bench throughput --iteration_log iteration.log` invocation: its report (tee'd into
 * bench.log) and its engine's iteration statistics beside it. The run is offline (no server), and
 * the statistics are its own engine's: the run gets their aggregates, and the timeline's lines its id.
 */
const SUITE = path.resolve('fixtures/_suites/trtllm-bench-iteration-log');

describe('trtllm-bench run and its --iteration_log', () => {
  const scanned = scanPaths([SUITE]);
  const built = buildRuns(scanned.records.slice(), new DiagnosticCollector());

  it("gives the run its engine's statistics over the whole log", () => {
    expect(built.rows).toHaveLength(1);
    // the basic fixture's iterations: 48, 128 and 136 of 2048 blocks used, up to 8 requests running and 5 waiting
    expect(built.rows[0]).toMatchObject({ client: 'trtllm-bench', server_kv_cache_usage_max: 136 / 2048, server_running_max: 8, server_waiting_max: 5 });
    expect(built.linkedRuns.get('tp2-eagle3/iteration.log')).toBe(1);
  });

  it("gives the timeline's lines the run's id", () => {
    const table = timelineTable(scanned.records, undefined, built.served);
    const ids = new Set(Array.from({ length: table.length }, (_, i) => table.cell(i, 'run_id')));
    expect([...ids]).toEqual([built.rows[0]?.run_id]);
  });
});
