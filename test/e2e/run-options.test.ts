import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-run-options-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const result = (model: string, date: string, tput: number, concurrency = 4) =>
  JSON.stringify({ date, backend: 'vllm', model_id: model, max_concurrency: concurrency, duration: 60, completed: 100, failed: 0, total_input_tokens: 1000, total_output_tokens: 500, request_throughput: 1.6, output_throughput: tput, total_token_throughput: 3 * tput, mean_ttft_ms: 20 + tput / 100, mean_tpot_ms: 1000 / tput, mean_e2el_ms: 500 });

const stats = (time: string, running: number, kv: string) =>
  `INFO 11-02 ${time} [loggers.py:123] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 20.0 tokens/s, Running: ${running} reqs, Waiting: 0 reqs, GPU KV cache usage: ${kv}%, Prefix cache hit rate: 0.0%`;

/** A client on UTC+2 (its result dated 12:01) beside its server's log from a container on UTC (10:00). */
const CLOCKS = path.join(tmp, 'clocks');
/** A layout only a template reads: `<engine>/<gpu>/c<concurrency>.json`. */
const LAYOUT = path.join(tmp, 'layout');

beforeAll(() => {
  mkdirSync(path.join(CLOCKS, 'tp4'), { recursive: true });
  writeFileSync(path.join(CLOCKS, 'tp4/bench.json'), result('org/m', '20251102-120100', 100));
  const log = [
    'INFO 11-02 09:58:00 [api_server.py:1] vLLM API server version 0.11.0',
    "INFO 11-02 09:58:01 [api_server.py:2] non-default args: {'model': 'org/m', 'tensor_parallel_size': 4, 'speculative_config': {'method': 'eagle3', 'model': 'org/m-eagle3', 'num_speculative_tokens': 3}}",
    stats('09:59:50', 4, '1.0'),
    stats('10:00:30', 4, '30.0'),
    stats('10:05:10', 9, '90.0'),
  ];
  writeFileSync(path.join(CLOCKS, 'tp4/serve.log'), `${log.join('\n')}\n`);
  for (const gpu of ['h100', 'a100']) {
    mkdirSync(path.join(LAYOUT, 'vllm', gpu), { recursive: true });
    for (const c of [1, 4]) writeFileSync(path.join(LAYOUT, 'vllm', gpu, `c${c}.json`), result('org/m', `2025110${c}-120100`, gpu === 'h100' ? 200 * c : 100 * c, c));
  }
});

/** The rows of a report's runs.csv, by column name (Arquero's CSV: fields with commas or quotes quoted). */
function reportRuns(dir: string): Record<string, string>[] {
  const fields = (line: string): string[] => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => (m[1] ?? '').replace(/^"|"$/g, '').replaceAll('""', '"'));
  const [header, ...lines] = readFileSync(path.join(dir, 'tables/runs.csv'), 'utf8').trim().split('\n');
  const columns = fields(header ?? '');
  return lines.map((l) => Object.fromEntries(fields(l).map((v, i) => [columns[i], v])));
}

describe('--clock-offset', () => {
  it('says when a run has no stats beside it at its time, and how far they are, naming the option', () => {
    const r = runCli(['table', CLOCKS, '-f', 'jsonl']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).spec_method).toBeNull();
    expect(r.stderr).toContain('tp4/bench.json:1:1: warning link/off-clock the server log beside this run has no stats at its time (from 2025-11-02 12:00:00): none linked');
    expect(r.stderr).toContain("which --clock-offset sets: its stats end 1 h 55 min before the run; a positive offset reads the run earlier; --clock-offset +2, alone of the quarter hours, puts every such run here on its server's busy stats at its load)");
  });

  it('links the run to its server read on the server’s clock, in every command that builds runs', () => {
    const table = runCli(['table', CLOCKS, '-f', 'jsonl', '--clock-offset', '+2']);
    expect(table.stderr).not.toContain('off-clock');
    const row = JSON.parse(table.stdout);
    // the server's configuration, and its stats in the run's minute only (not the 90 % after it)
    expect([row.spec_method, row.num_spec_tokens, row.tp, row.server_kv_cache_usage_max]).toEqual(['eagle3', 3, 4, 0.3]);
    // each command takes the option and links the run (a command without it would stop at a usage error)
    const linked = (args: string[]): void => {
      const r = runCli(args);
      expect([r.status, r.stderr.includes('off-clock')]).toEqual([0, false]);
      expect(r.stderr).toMatch(/benchlens: .*1 runs?\b/);
    };
    linked(['scan', CLOCKS, '--clock-offset', '+2']);
    linked(['compare', CLOCKS, '--baseline', 'spec_method=none', '--clock-offset', '+2:00']);
    // without it, the report says so beside what it found
    const unlinked = path.join(tmp, 'report-unlinked');
    runCli(['report', CLOCKS, '--out', unlinked]);
    // the offset the warning offers, when it is the only one: what to type
    const line = '1 run not linked to the server logs beside it: no stats there at its time (link/off-clock below); if the runs&#39; clock and the logs&#39; are in two time zones, pass --clock-offset +2: it puts it on its server&#39;s busy stats, and no other quarter hour does.';
    expect(readFileSync(path.join(unlinked, 'index.html'), 'utf8')).toContain(line);
    // a server busy all day fits many offsets: none is named
    const busy = path.join(tmp, 'busy-all-day');
    mkdirSync(busy, { recursive: true });
    writeFileSync(path.join(busy, 'bench.json'), result('org/m', '20251102-200100', 100));
    const day = Array.from({ length: 37 }, (_, i) => stats(`${String(9 + Math.floor(i / 6)).padStart(2, '0')}:${String((i % 6) * 10).padStart(2, '0')}:00`, 4, '30.0'));
    writeFileSync(path.join(busy, 'serve.log'), `${day.join('\n')}\n`);
    const busyReport = path.join(tmp, 'report-busy');
    const r = runCli(['report', busy, '--out', busyReport]);
    expect(r.stderr).toContain('a positive offset reads the run earlier)');
    expect(readFileSync(path.join(busyReport, 'index.html'), 'utf8')).toContain('are in two time zones, pass --clock-offset.</li>');
    const out = path.join(tmp, 'report-clocks');
    const report = runCli(['report', CLOCKS, '--out', out, '--clock-offset', '+2']);
    expect(report.stderr).not.toContain('off-clock');
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).not.toContain('not linked to the server logs');
    expect(reportRuns(out).map((r) => [r.spec_method, r.tp])).toEqual([['eagle3', '4']]);
    const plot = runCli(['plot', CLOCKS, '--chart', 'metric-lines', '--out', path.join(tmp, 'lines.svg'), '--clock-offset', '+2']);
    expect([plot.status, plot.stderr.includes('off-clock')]).toEqual([0, false]);
  });

  it('refuses an offset that is not one, as a usage error', () => {
    const r = runCli(['report', CLOCKS, '--out', path.join(tmp, 'never'), '--clock-offset', '2h']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("option '--clock-offset <hours>' argument '2h' is invalid. expected hours, with minutes if any: +2, -5:30, +02:00");
  });
});

describe('--path-template', () => {
  it('reads the columns a layout declares in report and plot as in table and compare', () => {
    const template = ['--path-template', '{engine}/{gpu}/c{max_concurrency}.json'];
    const table = runCli(['table', LAYOUT, '-f', 'jsonl', ...template]);
    expect(table.stdout.trim().split('\n').map((l) => JSON.parse(l).gpu).sort()).toEqual(['a100', 'a100', 'h100', 'h100']);
    const out = path.join(tmp, 'report-layout');
    expect(runCli(['report', LAYOUT, '--out', out, '--baseline', 'gpu=a100', ...template]).status).toBe(0);
    expect(reportRuns(out).map((r) => r.gpu).sort()).toEqual(['a100', 'a100', 'h100', 'h100']);
    // h100 twice the throughput of a100 at each concurrency
    expect(readFileSync(path.join(out, 'tables/comparison.csv'), 'utf8')).toContain('ok');
    const plot = runCli(['plot', LAYOUT, '--chart', 'speedup-lines', '--baseline', 'gpu=a100', '--out', path.join(tmp, 'gpu.vl.json'), ...template]);
    expect(plot.status).toBe(0);
    const values = (JSON.parse(readFileSync(path.join(tmp, 'gpu.vl.json'), 'utf8')) as { layer: { data: { values: { speedup: number }[] } }[] }).layer[0]?.data.values ?? [];
    expect(values.map((v) => v.speedup)).toEqual([2, 2]);
  });
});
