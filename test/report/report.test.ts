import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { loadTables } from '../../src/report/tables.js';
import { writeReport } from '../../src/report/write-report.js';

const ESCAPING = 'fixtures/_suites/report-escaping';
const SWEEP = 'fixtures/_suites/spec-decode-sweep';
const EXAMPLE = 'reports/example';
const INJECTION = '<img src=x onerror=alert(1)>';
const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? listFiles(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]))
    .sort();
}

describe('report page', () => {
  it('shows log text only as text, with no script, no absolute path and no clock', async () => {
    const { html, markdown } = await buildReport(await loadTables([ESCAPING], {}, undefined), 'escaping <check>');
    // Booleans rather than toContain: a failure would otherwise print the whole page.
    expect(html.includes(INJECTION)).toBe(false);
    expect(html.includes('&lt;img src=x onerror=alert(1)&gt;')).toBe(true);
    expect(html.includes('<title>escaping &lt;check&gt;</title>')).toBe(true);
    expect(/<img|<script|<iframe|javascript:/i.test(html)).toBe(false);
    expect(html.includes(path.resolve('.'))).toBe(false);
    expect(/\b20\d\d-\d\d-\d\dT\d\d:\d\d/.test(html)).toBe(false);
    expect(/(src|href)="(https?:)?\/\//.test(html)).toBe(false);
    expect(markdown).not.toContain(INJECTION);
  });

  it('lists the runs with file:line, the comparison, findings and the default baseline', async () => {
    const { html, markdown, figures } = await buildReport(await loadTables([ESCAPING], {}, undefined), 'r');
    const runsTable = /<table id="runs-table">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
    const sources = [...runsTable.matchAll(/<tr><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    expect(sources).toEqual(['baseline-c1.json:1', 'baseline-c8.json:1', 'ngram-c1.json:1', 'ngram-c8.json:1']);
    const findings = /<section id="(?:summary|findings)">[\s\S]*?<\/section>\n<section id="findings">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    expect(findings).toBe('<h2>Key findings</h2><ul><li>ngram: best output_throughput speedup 1.43× (tp 1, max_concurrency 1, mean acceptance length 2.44, ngram-c1.json:1).</li><li>ngram (tp 1): speedup falls below 1 at max_concurrency ≈ 5.886 (break-even, interpolated on log2).</li></ul>');
    expect(html.includes('<table id="summary-best-speedup">')).toBe(true);
    expect(html.includes('<li>Baseline: spec_method=null (picked by default because such runs exist; pass --baseline to choose another).</li>')).toBe(true);
    expect(markdown).toContain('|ngram-c1.json:1|&lt;img src=x onerror=alert(1)&gt;|1|ngram|1|ok|88.1|61.5|1.4325|');
    expect(figures.filter((f) => f.drawn).map((f) => f.id)).toEqual(['speedup-heatmap', 'speedup-lines', 'metric-lines-output_throughput', 'metric-lines-mean_tpot_ms', 'metric-lines-mean_ttft_ms', 'pareto', 'ladder', 'acceptance-position', 'acceptance-speedup']);
    expect(html.match(/<figure class="chart"/g)?.length).toBe(9);
    expect(figures.find((f) => !f.drawn)).toMatchObject({ id: 'metric-lines-mean_e2el_ms', reason: 'no runs with both max_concurrency and mean_e2el_ms' });
  });

  it('draws energy per output token along the load when runs measured it, and says nothing of it otherwise', async () => {
    const dir = path.join(tmp, 'energy');
    mkdirSync(dir);
    for (const name of readdirSync(ESCAPING).filter((n) => n.endsWith('.json'))) {
      const run = JSON.parse(readFileSync(path.join(ESCAPING, name), 'utf8')) as Record<string, unknown>;
      writeFileSync(path.join(dir, name), JSON.stringify({ ...run, energy_per_output_token_j: name.startsWith('baseline') ? 0.5 : 0.3 }));
    }
    const withEnergy = await buildReport(await loadTables([dir], {}, undefined), 'r');
    expect(withEnergy.figures.find((f) => f.id === 'metric-lines-energy_per_output_token_j')).toMatchObject({ drawn: true });
    // ngram used 0.3 J a token where the baseline used 0.5
    expect(withEnergy.markdown).toContain("ngram: at best 0.60× the baseline's energy per output token");
    const without = await buildReport(await loadTables([ESCAPING], {}, undefined), 'r');
    expect(without.figures.some((f) => f.id.includes('energy'))).toBe(false);
  });

  it('tells how its scan goes (the command line draws its progress bar from it)', async () => {
    const seen: { filesDone: number; filesTotal: number }[] = [];
    const tables = await loadTables([SWEEP], {}, undefined, { progress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toMatchObject({ filesDone: tables.files.length, filesTotal: tables.files.length });
  });

  it('is byte-identical when built twice', async () => {
    const a = await buildReport(await loadTables([ESCAPING], {}, undefined), 'r');
    const b = await buildReport(await loadTables([ESCAPING], {}, undefined), 'r');
    expect(a.html).toBe(b.html);
    expect(a.markdown).toBe(b.markdown);
  });

  it('still produces a valid report, saying so, when no runs are found', async () => {
    const empty = mkdtempSync(path.join(tmp, 'empty-'));
    const { written } = await writeReport(path.join(tmp, 'out-empty'), await loadTables([empty], {}, undefined), 'nothing');
    expect(written).toEqual(['index.html', 'summary.md', 'tables/comparison.csv', 'tables/diagnostics.csv', 'tables/failed-configurations.csv', 'tables/files.csv', 'tables/runs.csv', 'tables/timeline.csv']);
    const html = readFileSync(path.join(tmp, 'out-empty', 'index.html'), 'utf8');
    expect(html.includes('<li>No benchmark runs were found in the given paths, so there is nothing to compare or chart.</li>')).toBe(true);
    expect(html.includes('<li>0 benchmark runs, 0 server stats lines, 0 failed configurations.</li>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });
});

describe('checked-in example report (reports/example)', () => {
  it('equals a fresh report of the spec-decode sweep (PNG bytes excluded)', async () => {
    const out = path.join(tmp, 'example');
    const { written } = await writeReport(out, await loadTables([SWEEP], {}, undefined), 'Speculative decoding sweep (example)');
    expect(listFiles(EXAMPLE)).toEqual(written);
    for (const rel of written) {
      if (rel.endsWith('.png')) {
        expect(statSync(path.join(EXAMPLE, rel)).size).toBeGreaterThan(5000);
        continue;
      }
      await expect(readFileSync(path.join(out, rel), 'utf8')).toMatchFileSnapshot(path.resolve(EXAMPLE, rel));
    }
  });
});
