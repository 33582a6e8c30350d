import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const SUITE = 'fixtures/_suites/spec-decode-sweep';
const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-plot-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('benchlens plot (built binary)', () => {
  it('writes a heatmap as SVG whose cells are the computed speedups', () => {
    const out = path.join(tmp, 'heat.svg');
    const r = runCli(['plot', SUITE, '--chart', 'speedup-heatmap', '--out', out]);
    expect(r.stderr).toContain('speedup-heatmap from 15 rows written to');
    const svg = readFileSync(out, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('>2.03×</text>');
    expect(svg).toContain('>0.68×</text>');
  });

  it('writes PNG at 2× and Vega-Lite JSON with the data inlined, honouring --metric, --filter and --title', () => {
    const png = path.join(tmp, 'lines.png');
    expect(runCli(['plot', SUITE, '--chart', 'metric-lines', '--metric', 'mean_tpot_ms', '--out', png]).stderr).toContain('written to');
    expect(statSync(png).size).toBeGreaterThan(10_000);
    const vl = path.join(tmp, 'lines.vl.json');
    runCli(['plot', SUITE, '--chart', 'speedup-lines', '--filter', 'spec_method=eagle3', '--title', 'EAGLE-3 <k7>', '--out', vl]);
    const spec = JSON.parse(readFileSync(vl, 'utf8')) as { title: { text: string }; layer: { data: { values: { series: string; x: number }[] } }[] };
    expect(spec.title.text).toBe('EAGLE-3 <k7>');
    const values = spec.layer[0]?.data.values ?? [];
    expect(values.map((v) => v.x)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(new Set(values.map((v) => v.series))).toEqual(new Set(['eagle3']));
  });

  it('draws a crowded chart when asked for it, saying why it is hard to read; a report leaves it out with the reason', () => {
    // 32 models' results at two concurrencies: 32 lines, more than a legend names
    const dir = path.join(tmp, 'crowded');
    mkdirSync(dir);
    for (let m = 0; m < 32; m++)
      for (const c of [1, 8])
        writeFileSync(path.join(dir, `m${m}-c${c}.json`), JSON.stringify({ date: '20260301-100000', backend: 'vllm', model_id: `org/model-${m}`, max_concurrency: c, duration: 60, completed: 100, failed: 0, total_input_tokens: 1000, total_output_tokens: 500, request_throughput: 1.6, output_throughput: 100 * c + m, total_token_throughput: 300 * c, mean_ttft_ms: 20, mean_tpot_ms: 10 }));
    const svg = path.join(tmp, 'crowded.svg');
    const r = runCli(['plot', dir, '--chart', 'metric-lines', '--out', svg]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('metric-lines from 64 rows written to');
    expect(r.stderr).toContain('(32 configurations, too many to read in one chart (at most 30); draw a part of them with benchlens plot --chart metric-lines --filter model=org/model-0)');
    expect(readFileSync(svg, 'utf8').startsWith('<svg')).toBe(true);
    // a model name that carries a terminal escape is shown, not acted on
    writeFileSync(path.join(dir, 'm0-c1.json'), readFileSync(path.join(dir, 'm0-c1.json'), 'utf8').replace('org/model-0', 'org/\\u001b[2Jmodel-0'));
    writeFileSync(path.join(dir, 'm0-c8.json'), readFileSync(path.join(dir, 'm0-c8.json'), 'utf8').replace('org/model-0', 'org/\\u001b[2Jmodel-0'));
    const escaped = runCli(['plot', dir, '--chart', 'metric-lines', '--out', svg]);
    expect(escaped.stderr).toContain('--filter model=org/\\u001b[2Jmodel-0)');
    expect(escaped.stderr.includes('\x1b')).toBe(false);
    const report = path.join(tmp, 'crowded-report');
    expect(runCli(['report', dir, '--out', report]).status).toBe(0);
    expect(existsSync(path.join(report, 'figures/metric-lines-output_throughput.svg'))).toBe(false);
    expect(readFileSync(path.join(report, 'index.html'), 'utf8')).toContain('32 configurations, too many to read in one chart');
  });

  it('exits 2 with a message for an unknown chart or output type', () => {
    const a = runCli(['plot', SUITE, '--chart', 'pie', '--out', path.join(tmp, 'x.svg')]);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('unknown --chart "pie"; use one of speedup-heatmap, speedup-lines');
    const b = runCli(['plot', SUITE, '--chart', 'pareto', '--out', path.join(tmp, 'x.pdf')]);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('--out must end in .svg, .png or .vl.json');
  });
});

describe('benchlens report (built binary)', () => {
  it('writes index.html, figures, tables and summary.md', () => {
    const out = path.join(tmp, 'report');
    const r = runCli(['report', SUITE, '--out', out, '--baseline', 'spec_method=none', '--title', 'sweep']);
    expect(r.stderr).toMatch(/benchlens: report with 21 runs and \d+ charts: \d+ files in /);
    for (const f of ['index.html', 'summary.md', 'tables/runs.csv', 'tables/comparison.csv', 'figures/speedup-heatmap.svg', 'figures/speedup-heatmap.png', 'figures/speedup-heatmap.vl.json']) {
      expect(existsSync(path.join(out, f)), f).toBe(true);
    }
    expect(readFileSync(path.join(out, 'summary.md'), 'utf8')).toContain('- Baseline: spec\\_method=none.');
    // no SLA table unless limits are given
    expect(existsSync(path.join(out, 'tables/summary-sla.csv'))).toBe(false);
  });

  it('adds the largest load meeting --sla limits per configuration, the limits in its title; a bad limit exits 2', () => {
    const out = path.join(tmp, 'report-sla');
    expect(runCli(['report', SUITE, '--out', out, '--sla', 'ttft=2000,tpot=45']).status).toBe(1);
    const rows = readFileSync(path.join(out, 'tables/summary-sla.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toContain('largest_max_concurrency_meeting_sla');
    expect(rows.map((r) => r.split(',')).map((r) => [r[2], r[7]])).toEqual([
      ['spec_method', 'largest_max_concurrency_meeting_sla'],
      ['eagle3', '32'],
      ['draft_model', '16'],
      ['none', '16'],
    ]);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('Largest concurrency meeting the SLA (mean_ttft_ms ≤ 2000 ms, mean_tpot_ms ≤ 45 ms)');
    const bad = runCli(['report', SUITE, '--out', path.join(tmp, 'report-bad'), '--sla', 'ttft']);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('is not metric=milliseconds')]);
  });

  it('leads with --metric: findings, summaries and the speedup charts on it, compared even when not a default metric; an unknown one exits 2', () => {
    const out = path.join(tmp, 'report-metric');
    expect(runCli(['report', SUITE, '--out', out, '--metric', 'p99_tpot_ms']).status).toBe(1);
    const summary = readFileSync(path.join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('eagle3: best p99\\_tpot\\_ms speedup 2.08×');
    expect(readFileSync(path.join(out, 'tables/comparison.csv'), 'utf8').split('\n')[0]).toContain('speedup_p99_tpot_ms');
    expect(readFileSync(path.join(out, 'figures/speedup-heatmap.vl.json'), 'utf8')).toContain('Speedup vs baseline: p99_tpot_ms');
    const bad = runCli(['report', SUITE, '--out', path.join(tmp, 'report-bad-metric'), '--metric', 'nope']);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('--metric "nope": no run has a value of it')]);
  });
});
