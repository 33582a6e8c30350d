import { html, type SafeHtml } from '../render/html-escape.js';
import { ownCell } from '../core/cells.js';

/**
 * Rows a table of the page shows at most: a campaign of 20,000 runs made a 58 MB page that a
 * browser struggles to open. The CSV beside the page holds every row.
 */
export const MAX_HTML_ROWS = 2000;

export type DisplayRow = Record<string, string | number | null>;

/** The rows of a table that a page shows (at most MAX_HTML_ROWS) and how many the table has. */
export interface ShownRows {
  readonly rows: readonly DisplayRow[];
  readonly total: number;
}

/**
 * A table's first MAX_HTML_ROWS rows made into display rows: only those (a campaign's 80,000
 * display rows took some 40 MB to show 2,000).
 */
export function shownRows<R>(all: readonly R[], display: (rows: readonly R[]) => DisplayRow[]): ShownRows {
  return { rows: display(all.length > MAX_HTML_ROWS ? all.slice(0, MAX_HTML_ROWS) : all), total: all.length };
}

/**
 * An HTML table; every cell is escaped text. Numbers align right. Of a table of more than
 * MAX_HTML_ROWS rows (`total`: all it has, `rows` those made to be shown), a note names `csv`.
 */
export function htmlTable(id: string, rows: readonly DisplayRow[], columns: readonly string[], csv: string, total = rows.length): SafeHtml {
  if (total === 0) return html`<p class="empty" id="${id}">none</p>`;
  const shown = rows.length > MAX_HTML_ROWS ? rows.slice(0, MAX_HTML_ROWS) : rows;
  const cut = shown.length < total ? html`<p class="note" id="${id}-cut">The first ${shown.length} of ${total} rows; all of them: ${csv}.</p>` : html``;
  return html`${cut}<div class="scroll"><table id="${id}"><thead><tr>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${shown.map(
    (r) => html`<tr>${columns.map((c) => cell(ownCell(r, c) ?? null))}</tr>`,
  )}</tbody></table></div>`;
}

function cell(v: string | number | null): SafeHtml {
  if (v === null) return html`<td class="null"></td>`;
  if (typeof v === 'number') return html`<td class="num">${v}</td>`;
  return html`<td>${v}</td>`;
}
