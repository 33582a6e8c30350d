import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/evalscope-perf-console/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';
import { runsOf } from '../../helpers/runs-of.js';

/** The printed table of the fixture case: three loads, one of each mode. */
const CONSOLE = readFileSync(path.resolve('fixtures/evalscope-perf-console/layout-2026-engine-suite-console/input.txt'), 'utf8');
const detect = (head: string) => grammar.detect({ head, path: 'perf.log' } as never);

/** A printed table with the given rows under the engine's headers (cells already formatted). */
function table(rows: readonly (readonly string[])[]): string {
  const headers = ['Load', 'Value', 'Total', 'Succeeded', 'Failed', 'Dropped', 'RPS', 'Avg latency (s)', 'Success'];
  const width = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const rule = (l: string, m: string, r: string) => l + width.map((w) => '─'.repeat(w + 2)).join(m) + r;
  const line = (cells: readonly string[]) => `│${cells.map((c, i) => ` ${c.padEnd(width[i] ?? 0)} `).join('│')}│`;
  const body = rows.flatMap((r) => [rule('├', '┼', '┤'), line(r)]);
  return ['Performance suite summary:', rule('┌', '┬', '┐'), line(headers), ...body, rule('└', '┴', '┘'), ''].join('\n');
}

describe('evalscope-perf-console: the 2026 perf engine\'s "Performance suite summary"', () => {
  it('detects the printed suite table by its title and box', () => {
    expect(detect(CONSOLE)).toMatchObject({ score: 0.8 });
    expect(detect(CONSOLE.replaceAll('\n', '\r\n'))).toMatchObject({ score: 0.8 });
    // past a line another program wrote between the title and the box
    expect(detect(CONSOLE.replace('Performance suite summary:\n', 'Performance suite summary:\nSetting ds_accelerator to cuda\n'))).toMatchObject({ score: 0.8 });
    // prose naming the title and the box (a README) is not the table
    expect(detect('logs `Performance suite summary:` and a `simple_grid` table\n(`┌─┬┐` borders)\n')).toMatchObject({ score: 0 });
  });

  it('reads one run per load, Value as the concurrency or the rate its mode names', () => {
    const r = runGrammar(grammar, CONSOLE);
    expect(r.diagnostics).toEqual([]);
    const [closed, open, conversation] = runFields(r.records);
    expect(closed).toMatchObject({ load_mode: 'closed_loop', max_concurrency: 4, num_requests: 200, completed: 200, failed: 0, dropped: 0, request_throughput: 3.27, mean_e2el_ms: 1224, client: 'evalscope-perf' });
    expect(closed?.request_rate).toBeUndefined();
    expect(open).toMatchObject({ load_mode: 'open_loop', request_rate: 2.5, num_requests: 150, completed: 146, failed: 1, dropped: 3, mean_e2el_ms: 870 });
    expect(open?.max_concurrency).toBeUndefined();
    expect(conversation).toMatchObject({ load_mode: 'conversation', max_concurrency: 2, multi_turn: true });
    // the success rate is the counts' (suite.ts maps none): no error_rate from its 0.1 %
    expect(closed?.error_rate).toBeUndefined();
  });

  it('says an SLA search row (no mode in its load id) instead of guessing its Value, keeps a cut table partial', () => {
    const sla = runGrammar(grammar, table([['sla-8-rep-0', '8', '40', '40', '0', '0', '5.1', '1.5', '100.0%']]));
    const [f] = runFields(sla.records);
    expect(f).toMatchObject({ num_requests: 40, mean_e2el_ms: 1500 });
    expect(f?.max_concurrency).toBeUndefined();
    expect(f?.request_rate).toBeUndefined();
    expect(sla.diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
    const cut = table([['000-closed_loop', '4', '200', '200', '0', '0', '3.27', '1.224', '100.0%']]).split('\n').slice(0, -2).join('\n');
    const partial = runGrammar(grammar, cut);
    expect(partial.records.map((x) => (x.kind === 'run' ? x.complete : null))).toEqual([false]);
    expect(partial.diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
  });
});

/**
 * The console beside the suite folder it printed: `suite_summary.json` (read by
 * evalscope-perf-json) holds the same three loads. Every column the printed row has is the saved
 * row's, at the printed precision.
 */
describe('evalscope-perf-console: the printed suite and its suite_summary.json', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'benchlens-evalscope-suite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const suite = path.join(dir, 'outputs/perf/r1');
  mkdirSync(suite, { recursive: true });
  writeFileSync(path.join(dir, 'perf.log'), CONSOLE);
  const run = (id: string, load: object, summary: object) => ({ run_id: 'r1', run_spec: { load_id: id, load, seed: 0, warmup_count: 0 }, summary, percentiles: {} });
  const summary = (total: number, ok: number, failed: number, dropped: number, duration: number, out: number, latency: number) => ({
    total, succeeded: ok, failed, dropped, success_rate: (ok / total) * 100, duration_seconds: duration, request_throughput: ok / duration,
    output_token_throughput: out, average_input_tokens: 512, average_output_tokens: 128, averages: { latency },
  });
  writeFileSync(path.join(suite, 'suite_summary.json'), JSON.stringify({
    run_id: 'r1',
    suite_config: { target: { model: 'acme/tiny-chat', protocol: 'openai_chat' }, workload: { name: 'openqa' }, generation: { max_tokens: 128, stream: true }, suite: { loads: [] } },
    runs: [
      run('000-closed_loop', { mode: 'closed_loop', concurrency: 4, request_count: 200 }, summary(200, 200, 0, 0, 61.2, 418.3, 1.22417)),
      run('001-open_loop', { mode: 'open_loop', request_rate: 2.5, request_count: 150 }, summary(150, 146, 1, 3, 60.5, 308.9, 0.86981)),
      run('002-conversation', { mode: 'conversation', concurrency: 2, conversation_count: 12 }, summary(48, 48, 0, 0, 45.71, 134.4, 1.90213)),
    ],
  }, null, 2));

  it('gives each printed load the columns and values of its saved load', () => {
    const rows = runsOf(dir).rows.filter((r) => r.client === 'evalscope-perf');
    const printed = rows.filter((r) => r.source_format === 'evalscope-perf-console');
    const saved = rows.filter((r) => r.source_format === 'evalscope-perf-json');
    expect(saved).toHaveLength(3);
    for (const p of printed) {
      const s = saved.find((x) => x.load_mode === p.load_mode);
      expect(s).toBeDefined();
      for (const c of ['max_concurrency', 'request_rate', 'num_requests', 'completed', 'failed', 'dropped', 'multi_turn', 'load_mode']) expect(p[c], c).toEqual(s?.[c]);
      expect(Math.abs((p.request_throughput as number) - (s?.request_throughput as number))).toBeLessThanOrEqual(0.005);
      expect(Math.abs((p.mean_e2el_ms as number) - (s?.mean_e2el_ms as number))).toBeLessThanOrEqual(0.5);
    }
  });

  /** The printed table has no output throughput: its rows meet their saved ones by load point and counts (dedupe-runs.ts, evalscopeCountsIdentity). */
  it('counts each load once: the printed copy merged into its suite_summary.json entry', () => {
    const rows = runsOf(dir).rows.filter((r) => r.client === 'evalscope-perf');
    expect(rows.map((r) => [r.load_mode, r.source_format])).toEqual([
      ['closed_loop', 'evalscope-perf-json'],
      ['open_loop', 'evalscope-perf-json'],
      ['conversation', 'evalscope-perf-json'],
    ]);
  });
});
