import { html, type SafeHtml } from '../render/html-escape.js';
import { ownCell } from '../core/cells.js';

/**
 * Rows a table of the page shows at most: a campaign of 20,000 runs made a 58 MB page that a
 * browser struggles to open. The CSV beside the page holds every row.
 */
export const MAX_HTML_ROWS = 2000;

/** An HTML table; every cell is escaped text. Numbers align right. Past MAX_HTML_ROWS, a note names `csv`. */
export function htmlTable(id: string, rows: readonly Record<string, string | number | null>[], columns: readonly string[], csv: string): SafeHtml {
  if (rows.length === 0) return html`<p class="empty" id="${id}">none</p>`;
  const shown = rows.length > MAX_HTML_ROWS ? rows.slice(0, MAX_HTML_ROWS) : rows;
  const cut = shown.length < rows.length ? html`<p class="note" id="${id}-cut">The first ${shown.length} of ${rows.length} rows; all of them: ${csv}.</p>` : html``;
  return html`${cut}<div class="scroll"><table id="${id}"><thead><tr>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${shown.map(
    (r) => html`<tr>${columns.map((c) => cell(ownCell(r, c) ?? null))}</tr>`,
  )}</tbody></table></div>`;
}

function cell(v: string | number | null): SafeHtml {
  if (v === null) return html`<td class="null"></td>`;
  if (typeof v === 'number') return html`<td class="num">${v}</td>`;
  return html`<td>${v}</td>`;
}
