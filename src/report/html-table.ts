import { html, type SafeHtml } from '../render/html-escape.js';

/** An HTML table; every cell is escaped text. Numbers align right. */
export function htmlTable(id: string, rows: readonly Record<string, string | number | null>[], columns: readonly string[]): SafeHtml {
  if (rows.length === 0) return html`<p class="empty" id="${id}">none</p>`;
  return html`<div class="scroll"><table id="${id}"><thead><tr>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${rows.map(
    (r) => html`<tr>${columns.map((c) => cell(r[c] ?? null))}</tr>`,
  )}</tbody></table></div>`;
}

function cell(v: string | number | null): SafeHtml {
  if (v === null) return html`<td class="null"></td>`;
  if (typeof v === 'number') return html`<td class="num">${v}</td>`;
  return html`<td>${v}</td>`;
}
