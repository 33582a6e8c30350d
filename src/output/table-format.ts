import * as aq from 'arquero';
import type { FieldValue } from '../core/types.js';
import { isJsonFormat, type TableFormat } from './format-names.js';
import { jsonRowChunks } from './json-rows.js';

export { isTableFormat, TABLE_FORMATS, type TableFormat } from './format-names.js';

type Row = Record<string, FieldValue>;

/**
 * Serializes rows (all with the same columns) through Arquero. Non-finite numbers are written as
 * `Infinity` / `-Infinity` (JSON has no literal for them, and `inf` is a real request rate).
 */
export function formatRows(rows: readonly Row[], format: TableFormat): string {
  switch (format) {
    case 'json':
    case 'jsonl':
      return [...jsonRowChunks(rows, format)].join('');
    case 'csv':
    case 'tsv': {
      if (rows.length === 0) return '';
      const table = aq.from(rows.map(flatCells));
      return `${table.toCSV({ delimiter: format === 'tsv' ? '\t' : ',' })}\n`;
    }
    case 'md': {
      if (rows.length === 0) return '';
      const table = aq.from(rows.map(flatCells));
      const format: Record<string, (v: unknown) => string> = {};
      for (const c of table.columnNames()) format[c] = markdownCell;
      return `${table.toMarkdown({ format })}\n`;
    }
  }
}

/**
 * The same text as formatRows, in pieces of about 1 MB for JSON and JSON Lines, so a table of
 * tens of thousands of rows is never one string of its whole size in memory (peak RSS, issue 7).
 */
export function* formatRowChunks(rows: readonly Row[], format: TableFormat): Generator<string> {
  if (isJsonFormat(format)) yield* jsonRowChunks(rows, format);
  else yield formatRows(rows, format);
}

/** Lists become `a;b;c` so a CSV cell stays one value per column. */
function flatCells(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = Array.isArray(v) ? v.join(';') : v;
  return out;
}

/** Empty for null; `<` and `>` as entities so log text cannot become HTML where Markdown is rendered. */
function markdownCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return String(v).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\n', ' ');
}
