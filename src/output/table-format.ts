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

const CHUNK_CHARS = 1 << 20;

/**
 * The same text as formatRows, in pieces of about 1 MB for JSON and JSON Lines, so a table of
 * tens of thousands of rows is never one string of its whole size in memory (peak RSS, issue 7).
 */
export function* formatRowChunks(rows: readonly Row[], format: TableFormat): Generator<string> {
  if (format !== 'json' && format !== 'jsonl') {
    yield formatRows(rows, format);
    return;
  }
  if (format === 'json' && rows.length === 0) {
    yield '[]\n';
    return;
  }
  let chunk = format === 'json' ? '[\n' : '';
  for (let i = 0; i < rows.length; i++) {
    const r = jsonSafe(rows[i] as Row);
    // JSON strings hold no raw newline, so indenting every line of a row nests it one level in the array
    if (format === 'jsonl') chunk += `${JSON.stringify(r)}\n`;
    else chunk += `  ${JSON.stringify(r, null, 2).replaceAll('\n', '\n  ')}${i + 1 < rows.length ? ',' : ''}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (format === 'json') chunk += ']\n';
  if (chunk.length > 0) yield chunk;
}

function jsonSafe(row: Row): Record<string, unknown> {
  // only rows with a non-finite number are copied, by a spread that keeps the row's shape (a copy
  // built key by key is a dictionary several times larger): tables of tens of thousands of rows go through here
  let out: Record<string, unknown> | null = null;
  for (const k in row) {
    const v = row[k];
    if (typeof v !== 'number' || Number.isFinite(v)) continue;
    out ??= { ...row };
    const safe = Number.isNaN(v) ? null : v > 0 ? 'Infinity' : '-Infinity';
    if (k === '__proto__') Object.defineProperty(out, k, { value: safe, enumerable: true, writable: true, configurable: true });
    else out[k] = safe;
  }
  return out ?? row;
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
