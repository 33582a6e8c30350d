import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-aiperf-server-metrics-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (c: string): string => path.join(FIXTURES, 'genai-perf-json', c, 'input.json');

/** An AIPerf artifact folder: the run's export (200 requests in `duration` s) and, beside it, the server metrics export of the same run. */
function artifacts(dir: string, serverMetrics: string, duration: number): void {
  mkdirSync(dir, { recursive: true });
  const run = JSON.parse(readFileSync(fixture('aiperf-nested-config'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(dir, 'profile_export_aiperf.json'), JSON.stringify({ ...run, benchmark_duration: { unit: 'sec', avg: duration }, request_throughput: { unit: 'requests/sec', avg: 200 / duration } }, null, 2));
  writeFileSync(path.join(dir, 'server_metrics_export.json'), serverMetrics);
}

describe('AIPerf artifact folder with a server metrics export', () => {
  it("gives the run its speculative-decoding acceptance from the server's counters over the run, named in its sources; a folder with no counters joins nothing", () => {
    const root = path.join(tmp, 'campaign');
    artifacts(path.join(root, 'artifacts/router-eagle3-concurrency64'), readFileSync(fixture('aiperf-server-metrics-spec-decode'), 'utf8'), 16.842);
    const plain = { aiperf_version: '0.4.0', summary: { endpoints_configured: ['http://localhost:8000/metrics'] }, metrics: { 'vllm:num_requests_running': { type: 'gauge', series: [{ stats: { avg: 3, max: 8 } }] } } };
    artifacts(path.join(root, 'artifacts/router-baseline-concurrency64'), JSON.stringify(plain, null, 2), 26.5);
    const { rows, diagnostics } = runsOf(root);
    const byFolder = new Map(rows.map((r) => [path.dirname(String(r.source_file)), r]));
    expect([...byFolder.keys()].sort()).toEqual(['artifacts/router-baseline-concurrency64', 'artifacts/router-eagle3-concurrency64']);
    const run = byFolder.get('artifacts/router-eagle3-concurrency64');
    expect([run?.client, run?.max_concurrency]).toEqual(['aiperf', 64]);
    // 12000 drafts of 36000 tokens, 20400 accepted (9000, 6600, 4800 at positions 0-2), both engines summed
    expect([run?.spec_num_drafts, run?.spec_draft_tokens, run?.spec_accepted_tokens, run?.spec_acceptance_rate, run?.spec_acceptance_length]).toEqual([12000, 36000, 20400, 20400 / 36000, 2.7]);
    expect(run?.spec_per_position_acceptance).toEqual([0.75, 0.55, 0.4]);
    expect(JSON.parse(String(run?.config_sources))).toContain('bench-metrics:artifacts/router-eagle3-concurrency64/server_metrics_export.json:1');
    // the baseline's export has no spec-decode counter: it stays an ignored block and gives its run nothing
    const baseline = byFolder.get('artifacts/router-baseline-concurrency64');
    expect(baseline?.spec_acceptance_rate ?? null).toBeNull();
    expect(JSON.parse(String(baseline?.config_sources)).some((s: string) => s.startsWith('bench-metrics:'))).toBe(false);
    expect(diagnostics.filter((d) => / (warning|error) /.test(d))).toEqual([]);
  });
});

describe('AIPerf artifact folder with an energy-efficiency export beside the server metrics export', () => {
  it('gives the run both: its acceptance and its GPU energy, each named in its sources', () => {
    const dir = path.join(tmp, 'energy', 'artifacts', 'eagle3-concurrency64');
    artifacts(dir, readFileSync(fixture('aiperf-server-metrics-spec-decode'), 'utf8'), 16.842);
    writeFileSync(path.join(dir, 'profile_export_aiperf_energy_efficiency.json'), readFileSync(fixture('aiperf-energy-efficiency-export')));
    const { rows } = runsOf(path.join(tmp, 'energy'));
    expect(rows).toHaveLength(1);
    const run = rows[0];
    expect(run?.spec_acceptance_length).toBe(2.7);
    expect(typeof run?.gpu_energy_j).toBe('number');
    expect(typeof run?.energy_per_output_token_j).toBe('number');
    const sources = JSON.parse(String(run?.config_sources)) as string[];
    expect(sources.filter((s) => s.startsWith('bench-metrics:')).sort()).toEqual([
      'bench-metrics:artifacts/eagle3-concurrency64/profile_export_aiperf_energy_efficiency.json:1',
      'bench-metrics:artifacts/eagle3-concurrency64/server_metrics_export.json:1',
    ]);
  });
});
