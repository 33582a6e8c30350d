import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTables } from '../../src/report/tables.js';
import { writeReport } from '../../src/report/write-report.js';

const INJECTION = '<img src=x onerror=alert(1)>';
const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-browser-'));
let browser: Browser;

beforeAll(async () => {
  await writeReport(tmp, await loadTables(['fixtures/_suites/report-escaping'], {}, undefined), 'browser check');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('report index.html in Chromium, offline', () => {
  it('renders every chart with marks, lists the runs, fetches nothing and runs no injected markup', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file://')) requests.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.route('**/*', (route) => (route.request().url().startsWith('file://') ? route.continue() : route.abort()));
    await page.goto(pathToFileURL(path.join(tmp, 'index.html')).href, { waitUntil: 'load' });

    const charts = await page.$$eval('figure.chart', (figs) =>
      figs.map((f) => ({ id: f.getAttribute('data-chart'), svgs: f.querySelectorAll('svg').length, marks: f.querySelectorAll('svg [role="graphics-symbol"][aria-roledescription$="mark"], svg [aria-roledescription="point"]').length })),
    );
    expect(charts.map((c) => c.id)).toEqual(['speedup-heatmap', 'speedup-lines', 'metric-lines-output_throughput', 'metric-lines-mean_tpot_ms', 'metric-lines-mean_ttft_ms', 'pareto', 'ladder', 'acceptance-position', 'acceptance-speedup']);
    for (const c of charts) {
      expect(c.svgs, c.id ?? '').toBe(1);
      expect(c.marks, c.id ?? '').toBeGreaterThan(0);
    }
    const tooltip = await page.$eval('#fig-speedup-heatmap svg [role="graphics-symbol"] > title', (t) => t.textContent);
    expect(tooltip).toBe('max_concurrency: 1; label: (none); speedup: 1.43; spec_method: ngram; speedup_output_throughput: 1.433; runs averaged: 1');

    const runs = await page.$$eval('#runs-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(runs.map((r) => r[0])).toEqual(['baseline-c1.json:1', 'baseline-c8.json:1', 'ngram-c1.json:1', 'ngram-c8.json:1']);
    const header = await page.$$eval('#runs-table thead th', (ths) => ths.map((th) => th.textContent));
    const modelCol = header.indexOf('model');
    expect(runs.map((r) => r[modelCol])).toEqual([INJECTION, INJECTION, INJECTION, INJECTION]);

    expect(await page.$$eval('img', (imgs) => imgs.length)).toBe(0);
    expect((await page.innerText('body')).includes(INJECTION)).toBe(true);
    await page.mouse.move(200, 200);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
