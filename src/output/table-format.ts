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
      // Arquero ends every line, the last one too, with a newline: nothing to add
      return withTrueHeader(table.toCSV({ delimiter: format === 'tsv' ? '\t' : ',' }));
    }
    case 'md': {
      if (rows.length === 0) return '';
      const table = aq.from(rows.map(flatCells));
      const format: Record<string, (v: unknown) => string> = {};
      for (const c of table.columnNames()) format[c] = markdownCell;
      // every row: Arquero stops a Markdown table at 100 rows unless told otherwise (its CSV writer does not)
      return `${withTrueHeader(table.toMarkdown({ format, limit: Number.POSITIVE_INFINITY }))}\n`;
    }
  }
}

/** Rows per piece of CSV: Arquero formats a table at a time, and a table of every row would be held whole. */
const CSV_ROWS_PER_CHUNK = 10_000;

/**
 * The same text as formatRows, in pieces for JSON, JSON Lines, CSV and TSV, so a table of hundreds
 * of thousands of rows is never one string, nor one Arquero table, of its whole size in memory
 * (peak RSS, issue 7). `fill` makes each row when its piece is written (see jsonRowChunks).
 */
export function* formatRowChunks<R = Row>(rows: ArrayLike<R>, format: TableFormat, fill: (row: R) => Row = (r) => r as Row): Generator<string> {
  if (isJsonFormat(format)) {
    yield* jsonRowChunks(rows, format, fill);
    return;
  }
  if (format === 'md') {
    yield formatRows(Array.from(rows, fill), format);
    return;
  }
  // Arquero takes a table's columns from its first row: every piece takes the first piece's, as
  // formatRows does for the whole table, so rows of different shapes come out the same either way
  let names: string[] | undefined;
  for (let start = 0; start < rows.length; start += CSV_ROWS_PER_CHUNK) {
    const piece: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(rows.length, start + CSV_ROWS_PER_CHUNK); i++) piece.push(flatCells(fill(rows[i] as R)));
    names ??= Object.keys(piece[0] as Record<string, unknown>);
    const table = aq.from(piece, names);
    // every piece has the same columns in the same order: only the first writes the header
    const csv = table.toCSV({ delimiter: format === 'tsv' ? '\t' : ',', header: start === 0 });
    yield start === 0 ? withTrueHeader(csv) : csv;
  }
}

/**
 * Lists become `a;b;c` so a CSV cell stays one value per column; a row without lists (nor a
 * column named like a property of every object) is not copied.
 */
function flatCells(row: Row): Record<string, unknown> {
  let copy = false;
  for (const k in row) if (Array.isArray(row[k]) || k in Object.prototype) copy = true;
  if (!copy) return row;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k in Object.prototype ? `${STAND_IN}${k}` : k] = Array.isArray(v) ? v.join(';') : v;
  return out;
}

/**
 * A column a log named like a property of every object (`__proto__`, `constructor`, `toString`: a
 * key of a result JSON, a server flag). Arquero keeps columns and formats in plain objects, where
 * those names are inherited: `__proto__` came out headed `undefined`, `toString` as
 * `[object Object]` in every row. Such a column is written under a stand-in name, then named in
 * the header as it was.
 */
const STAND_IN = '\u0000benchlens:';

/** The header line (the first) with stand-in names as the columns were named. */
function withTrueHeader(text: string): string {
  const end = text.indexOf('\n');
  const header = end < 0 ? text : text.slice(0, end);
  return header.includes(STAND_IN) ? header.replaceAll(STAND_IN, '') + text.slice(header.length) : text;
}

/** Empty for null; `<` and `>` as entities so log text cannot become HTML where Markdown is rendered. */
function markdownCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return String(v).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\n', ' ');
}
