import type { SummaryTable } from '../analyze/summaries.js';
import type { FieldValue } from '../core/types.js';
import { formatRows } from '../output/table-format.js';
import { MAX_HTML_ROWS, type ShownRows } from './html-table.js';
import type { ReportFigure } from './figures.js';

/** summary.md: the findings and the comparison as Markdown, ready for a blog post or a PR comment. */
export function summaryMarkdown(title: string, found: readonly string[], findings: readonly string[], comparison: ShownRows, figures: readonly ReportFigure[], summaries: readonly SummaryTable[] = []): string {
  const lines = [`# ${mdText(title)}`, '', '## What was found', '', ...found.map((f) => `- ${mdText(f)}`), '', '## Key findings', '', ...findings.map((f) => `- ${mdText(f)}`), ''];
  for (const t of summaries) lines.push(`## ${mdText(t.title)}`, '', ...mdTable(t.rows, `tables/summary-${t.id}.csv`), '');
  lines.push('## Comparison', '');
  lines.push(...(comparison.total === 0 ? ['No comparison rows.'] : mdTable(comparison.rows, 'tables/comparison.csv', comparison.total)), '');
  if (figures.length > 0) lines.push('## Figures', '', ...figureLines(figures));
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * The figures as the page shows them: each drawn one as an image, a chart drawn in parts named
 * before its parts, and those not drawn listed last with their reason (and the command that draws
 * a part), so a reader of the Markdown alone knows what is missing and why.
 */
function figureLines(figures: readonly ReportFigure[]): string[] {
  const lines: string[] = [];
  const skipped: string[] = [];
  for (const f of figures) {
    if (f.drawn) lines.push(`![${mdText(f.title)}](figures/${f.id}.svg)`, '');
    else if (f.parts !== undefined) lines.push(`${mdText(f.title)}: not drawn whole (${mdText(f.reason)}); below in ${mdText(f.parts)}.`, '');
    else skipped.push(`- ${mdText(f.title)}: ${mdText(f.reason)}.`);
  }
  if (skipped.length > 0) lines.push('Not drawn:', '', ...skipped, '');
  return lines;
}

/**
 * A Markdown table of at most MAX_HTML_ROWS rows, as the page shows them; past that (`total`: the
 * rows the table has), a line names the CSV of all.
 */
function mdTable(rows: readonly Record<string, FieldValue>[], csv: string, total = rows.length): string[] {
  const shown = rows.length > MAX_HTML_ROWS ? rows.slice(0, MAX_HTML_ROWS) : rows;
  const table = formatRows(shown, 'md').trimEnd();
  return shown.length < total ? [`The first ${shown.length} of ${total} rows; all of them: ${csv}.`, '', table] : [table];
}

/** Log text as inert Markdown: no raw HTML, no accidental emphasis or links. */
function mdText(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');
}
