import * as aq from 'arquero';
import type { FieldValue } from '../core/types.js';

export const TABLE_FORMATS = ['csv', 'tsv', 'json', 'jsonl', 'md'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

export function isTableFormat(value: string): value is TableFormat {
  return (TABLE_FORMATS as readonly string[]).includes(value);
}

type Row = Record<string, FieldValue>;

/**
 * Serializes rows (all with the same columns) through Arquero. Non-finite numbers are written as
 * `Infinity` / `-Infinity` (JSON has no literal for them, and `inf` is a real request rate).
 */
export function formatRows(rows: readonly Row[], format: TableFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(rows.map(jsonSafe), null, 2)}\n`;
    case 'jsonl':
      return rows.map((r) => `${JSON.stringify(jsonSafe(r))}\n`).join('');
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

function jsonSafe(row: Row): Record<string, unknown> {
  // only rows with a non-finite number are copied: tables of tens of thousands of rows go through here
  let finite = true;
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'number' && !Number.isFinite(v)) finite = false;
  }
  if (finite) return row;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = typeof v === 'number' && !Number.isFinite(v) ? (Number.isNaN(v) ? null : v > 0 ? 'Infinity' : '-Infinity') : v;
  }
  return out;
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
