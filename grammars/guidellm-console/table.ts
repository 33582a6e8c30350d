import type { TableLine } from './visitor.js';

/** One value row: its trimmed cells, left to right. */
export interface ValueRow {
  readonly cells: readonly string[];
  readonly line: number;
}

/**
 * Header rows, a `|---|` rule, value rows and the `|===|` rule that ends them. The modality
 * tables (`Text Metrics Statistics`) print two, input and output, under one title and one rule.
 */
export interface TableSection {
  readonly headerRows: string[];
  readonly rows: ValueRow[];
  /** The `|---|` rule was seen: the rows below it are values. */
  dashed: boolean;
  /** The `|===|` rule below the values was seen. */
  closed: boolean;
}

/** A table as read so far. */
export interface PipeTable {
  readonly title: string | null;
  /** Its title's line, else its first line. */
  readonly line: number;
  readonly sections: TableSection[];
  /** Every line of it, for a frame that turns out to be no GuideLLM table (a Markdown table). */
  readonly lines: number[];
  /** A `|===|` rule was seen: a Markdown table has none. */
  ruled: boolean;
}

/**
 * Reads a table's lines in order: a `|===|` rule opens it, header rows follow, the `|---|` rule
 * turns the rows below into values, the next `|===|` rule ends them (and opens the next section,
 * when rows follow it). It may be fed more lines after a break (rows printed after a log line
 * that cut into the table).
 */
export class TableReader {
  readonly table: PipeTable;
  #section: TableSection | null = null;

  constructor(title: string | null, line: number) {
    this.table = { title, line, sections: [], lines: [], ruled: false };
  }

  /** True until the `|===|` rule below its last values (a table cut short stays open). */
  get open(): boolean {
    return this.#section === null || !this.#section.closed;
  }

  /** The line of its last table line read. */
  get lastLine(): number {
    return this.table.lines.at(-1) ?? this.table.line;
  }

  feed(l: TableLine): void {
    this.table.lines.push(l.line);
    if (l.kind === 'heavy') {
      this.table.ruled = true;
      const s = this.#section;
      if (s?.dashed) s.closed = true;
      return;
    }
    const s = this.#section === null || this.#section.closed ? this.#newSection() : this.#section;
    if (l.kind === 'dash') s.dashed = true;
    else if (s.dashed) s.rows.push({ cells: splitCells(l.text), line: l.line });
    else s.headerRows.push(l.text);
  }

  #newSection(): TableSection {
    const s: TableSection = { headerRows: [], rows: [], dashed: false, closed: false };
    this.table.sections.push(s);
    this.#section = s;
    return s;
  }
}

/** True when every section ended with its `|===|` rule. */
export function isClosed(table: PipeTable): boolean {
  return table.sections.length > 0 && table.sections.every((s) => s.closed);
}

/** `| constant  | 09:35:12 | 30.0 |` → [`constant`, `09:35:12`, `30.0`]. */
export function splitCells(text: string): string[] {
  return inner(text)
    .split('|')
    .map((c) => c.trim());
}

/**
 * A header row's label of each column. GuideLLM writes a label spanning several columns once,
 * followed by an empty cell (no space at all) for each further column it spans
 * (`| Timings  ||||| Input Tokens ||| …`); a column without a label has a blank cell of its width.
 */
export function spannedLabels(text: string): string[] {
  const labels: string[] = [];
  for (const cell of inner(text).split('|')) {
    const last = labels.at(-1);
    labels.push(cell === '' && last !== undefined ? last : cell.trim());
  }
  return labels;
}

/** The text between a row's outer bars. */
function inner(text: string): string {
  return text.trim().replace(/^\|/, '').replace(/\|$/, '');
}
