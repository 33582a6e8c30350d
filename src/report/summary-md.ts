import type { SummaryTable } from '../analyze/summaries.js';
import { formatRows } from '../output/table-format.js';
import type { ReportFigure } from './figures.js';

/** summary.md: the findings and the comparison as Markdown, ready for a blog post or a PR comment. */
export function summaryMarkdown(title: string, found: readonly string[], findings: readonly string[], comparison: readonly Record<string, string | number | null>[], figures: readonly ReportFigure[], summaries: readonly SummaryTable[] = []): string {
  const lines = [`# ${mdText(title)}`, '', '## What was found', '', ...found.map((f) => `- ${mdText(f)}`), '', '## Key findings', '', ...findings.map((f) => `- ${mdText(f)}`), ''];
  for (const t of summaries) lines.push(`## ${mdText(t.title)}`, '', formatRows(t.rows, 'md').trimEnd(), '');
  lines.push('## Comparison', '');
  lines.push(comparison.length === 0 ? 'No comparison rows.' : formatRows(comparison, 'md').trimEnd(), '');
  const drawn = figures.filter((f) => f.drawn);
  if (drawn.length > 0) {
    lines.push('## Figures', '');
    for (const f of drawn) lines.push(`![${mdText(f.title)}](figures/${f.id}.svg)`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Log text as inert Markdown: no raw HTML, no accidental emphasis or links. */
function mdText(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');
}
