import type { SummaryTable } from '../analyze/summaries.js';
import type { FieldValue } from '../core/types.js';
import { formatRows } from '../output/table-format.js';
import { MAX_HTML_ROWS } from './html-table.js';
import type { ReportFigure } from './figures.js';

/** summary.md: the findings and the comparison as Markdown, ready for a blog post or a PR comment. */
export function summaryMarkdown(title: string, found: readonly string[], findings: readonly string[], comparison: readonly Record<string, string | number | null>[], figures: readonly ReportFigure[], summaries: readonly SummaryTable[] = []): string {
  const lines = [`# ${mdText(title)}`, '', '## What was found', '', ...found.map((f) => `- ${mdText(f)}`), '', '## Key findings', '', ...findings.map((f) => `- ${mdText(f)}`), ''];
  for (const t of summaries) lines.push(`## ${mdText(t.title)}`, '', ...mdTable(t.rows, `tables/summary-${t.id}.csv`), '');
  lines.push('## Comparison', '');
  lines.push(...(comparison.length === 0 ? ['No comparison rows.'] : mdTable(comparison, 'tables/comparison.csv')), '');
  const drawn = figures.filter((f) => f.drawn);
  if (drawn.length > 0) {
    lines.push('## Figures', '');
    for (const f of drawn) lines.push(`![${mdText(f.title)}](figures/${f.id}.svg)`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A Markdown table of at most MAX_HTML_ROWS rows, as the page shows them; past that, a line names the CSV of all. */
function mdTable(rows: readonly Record<string, FieldValue>[], csv: string): string[] {
  const shown = rows.length > MAX_HTML_ROWS ? rows.slice(0, MAX_HTML_ROWS) : rows;
  const table = formatRows(shown, 'md').trimEnd();
  return shown.length < rows.length ? [`The first ${shown.length} of ${rows.length} rows; all of them: ${csv}.`, '', table] : [table];
}

/** Log text as inert Markdown: no raw HTML, no accidental emphasis or links. */
function mdText(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');
}
