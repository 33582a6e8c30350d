import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childTokens } from '../../src/parse/chevrotain.js';

export interface MdRow {
  readonly cells: readonly string[];
  readonly line: number;
}

/** One Markdown table: its header cells and body rows. */
export interface MdTable {
  readonly header: readonly string[];
  readonly line: number;
  readonly rows: MdRow[];
  /**
   * True for rows that follow a break inside a table (a blank or foreign line) with no header of
   * their own: they continue the table before them, and the file was damaged.
   */
  readonly orphan: boolean;
}

/** A source's tables and the lines of its other lines, as its pieces are read. */
export interface MdTables {
  readonly tables: MdTable[];
  readonly otherLines: number[];
}

/**
 * Adds the tables of a document (a piece of the source, after those before it), split at each
 * header (the row before a `|---|` rule), and its other lines.
 */
export function addTables(document: CstNode, into: MdTables): void {
  const { tables, otherLines } = into;
  const nodes = (document.children.table as CstNode[] | undefined) ?? [];
  for (const node of byOffset([...nodes])) {
    let current: MdTable | null = null;
    let pending: MdRow[] = [];
    const flush = (rows: MdRow[]): void => {
      if (current) for (const r of rows) current.rows.push(r);
      else orphanRows(rows, tables, otherLines);
    };
    for (const t of byOffset([...childTokens(node, 'TableRow'), ...childTokens(node, 'TableRule')])) {
      if (t.tokenType.name === 'TableRow') {
        pending.push({ cells: splitCells(t.image), line: t.startLine ?? 1 });
        continue;
      }
      const header = pending.pop();
      if (!header) continue;
      flush(pending);
      pending = [];
      current = { header: header.cells, line: header.line, rows: [], orphan: false };
      tables.push(current);
    }
    flush(pending);
  }
  for (const node of (document.children.looseLine as CstNode[] | undefined) ?? []) {
    const t = [...childTokens(node, 'OtherLine'), ...childTokens(node, 'TableRule')][0];
    if (t && t.image.trim() !== '') otherLines.push(t.startLine ?? 1);
  }
}

/** Rows without a header continue the previous table (flagged); with no table before, they are noise. */
function orphanRows(rows: readonly MdRow[], tables: MdTable[], otherLines: number[]): void {
  const prev = tables[tables.length - 1];
  const first = rows[0];
  if (!first) return;
  if (prev) tables.push({ header: prev.header, line: first.line, rows: [...rows], orphan: true });
  else for (const r of rows) otherLines.push(r.line);
}

/** `| Prefill | 1 | 68.19 ms |` → [`Prefill`, `1`, `68.19 ms`]. */
function splitCells(image: string): string[] {
  return image
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}
