import { html, trusted, type SafeHtml } from '../render/html-escape.js';
import { addSvgTooltips } from '../render/svg-tooltips.js';
import type { ReportFigure } from './figures.js';

/** The parts of the page, already computed; `page` only lays them out. */
export interface PageParts {
  readonly title: string;
  readonly found: readonly string[];
  readonly findings: readonly string[];
  readonly figures: readonly ReportFigure[];
  readonly summaries: readonly SafeHtml[];
  readonly comparison: SafeHtml;
  readonly failed: SafeHtml;
  readonly runs: SafeHtml;
  readonly files: SafeHtml;
  readonly diagnostics: SafeHtml;
}

const STYLE = `
body{font:14px/1.45 Helvetica,Arial,sans-serif;color:#222;max-width:1200px;margin:2em auto;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;white-space:nowrap}
th{background:#f5f5f5;position:sticky;top:0}td.num{text-align:right;font-variant-numeric:tabular-nums}td.null{background:#fafafa}
.scroll{overflow:auto;max-height:36em}figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}
figcaption{font-size:12px;color:#555}.empty{color:#777}.note{color:#555}
`;

/** The whole report as one self-contained HTML file: inline CSS and SVG, no script, no fetch. */
export function page(p: PageParts): string {
  const doc = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${p.title}</title><style>${trusted(STYLE)}</style></head>
<body>
<h1>${p.title}</h1>
<section id="summary"><h2>What was found</h2><ul>${p.found.map((f) => html`<li>${f}</li>`)}</ul></section>
<section id="findings"><h2>Key findings</h2><ul>${p.findings.map((f) => html`<li>${f}</li>`)}</ul></section>
<section id="charts"><h2>Charts</h2>
<p class="note">Hover a mark for its values and source file:line. Each figure is also in figures/ as SVG, PNG (2×) and Vega-Lite JSON with the data inlined (open it in the Vega editor).</p>
${p.figures.map(figure)}</section>
<section id="summaries"><h2>Summaries</h2>${p.summaries.length > 0 ? p.summaries : html`<p class="empty">none (no paired runs)</p>`}</section>
<section id="comparison"><h2>Comparison</h2><p class="note">speedup_* &gt; 1 means the candidate is better (throughput ratio, inverse latency ratio); full table: tables/comparison.csv.</p>${p.comparison}
<h3>Failed configurations</h3>${p.failed}</section>
<section id="runs"><h2>Runs</h2><p class="note">Every row names the file:line its numbers came from; all columns: tables/runs.csv.</p>${p.runs}</section>
<section id="files"><h2>Files</h2>${p.files}</section>
<section id="diagnostics"><h2>Diagnostics</h2>${p.diagnostics}</section>
<footer class="note"><p>Made by benchlens. Derived columns (est_mean_e2el_ms, output_throughput_per_user, output_throughput_per_gpu) are computed, never parsed (docs/schema.md).</p></footer>
</body></html>
`;
  return doc.value;
}

function figure(f: ReportFigure): SafeHtml {
  if (!f.drawn && f.parts !== undefined) return html`<p class="note chart-split" data-chart="${f.id}">${f.title}: not drawn whole (${f.reason}); below in ${f.parts}.</p>`;
  if (!f.drawn) return html`<p class="empty chart-skipped" data-chart="${f.id}">${f.title}: not drawn (${f.reason}).</p>`;
  return html`<figure class="chart" id="fig-${f.id}" data-chart="${f.id}">${trusted(addSvgTooltips(f.svg))}
<figcaption>${f.title}${f.note ? html`: ${f.note}` : ''} · <a href="figures/${f.id}.svg">SVG</a> · <a href="figures/${f.id}.png">PNG</a> · <a href="figures/${f.id}.vl.json">Vega-Lite</a></figcaption></figure>`;
}
