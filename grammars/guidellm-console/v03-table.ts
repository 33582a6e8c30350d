import type { BarLine } from './visitor.js';

/**
 * The tables of GuideLLM 0.2 / 0.3 (`GenerativeBenchmarksConsole.print_table`): a rule of `=`, a
 * line of section names (`Metadata |||| Requests Made ||| …`: a name, then one `|` per column it
 * spans), a header line, a `---|---` rule, one line per benchmark and a closing `=` rule. Cells are
 * right-aligned to their column's width and joined by `| `, with no bar at either end: every line
 * of a table has its columns' `|` and the length of its rules.
 *
 * rich wraps each printed line at the terminal's width (80 columns when the output is no terminal,
 * as in a pod's log): at the space before a word, or inside a word longer than the width (the
 * rules). A wrapped table is known by its `=` rule printed over several lines; its other lines are
 * put back together from their pieces by their `|`: the `---` rule says how many a line has.
 */

/** One cell: its text, trimmed, and the line it is printed on (the cells of a wrapped line are on several). */
export interface BarCell {
  readonly text: string;
  readonly line: number;
}

/** A line of a table, put back together when it was wrapped: its cells, left to right, and its first line. */
export interface BarTableLine {
  readonly cells: readonly BarCell[];
  readonly line: number;
}

/** A column: the section name above it (`Req Latency (ms)`; '' with no section line) and its own (`median`). */
export interface BarColumnHeader {
  readonly section: string;
  readonly name: string;
}

export interface BarTable {
  /** Its top rule's line. */
  readonly line: number;
  readonly headers: readonly BarColumnHeader[];
  /** The columns its `---` rule has; 0 without one (a table cut before it). */
  readonly columns: number;
  /** Its value lines, less a last one cut mid-line (a table cut short). */
  readonly rows: readonly BarTableLine[];
  /** Its closing `=` rule was seen. */
  readonly closed: boolean;
  /** Printed over several lines each (a terminal narrower than the table). */
  readonly wrapped: boolean;
  /**
   * Its header lines have the columns of its `---` rule (or it has none to say): false when a
   * line went missing from the header, came twice, or a line was written into it, and its names
   * would stand over other columns' values.
   */
  readonly headerAligned: boolean;
  /** Lines after its closing rule with nothing between (no line of the table). */
  readonly trailing: readonly BarLine[];
}

const EQUALS = /^\s*=+\s*$/;
/** The `---|---` rule below the header, or a piece of it (a `|` alone is the end of a section line). */
const DASHES = /^\s*[-|]*-[-|]*\s*$/;

/**
 * Reads the lines of a frame that starts at a `=` rule into a table; null when nothing but rules
 * follows the rule (a `====` line of another tool).
 */
export function readBarTable(lines: readonly BarLine[]): BarTable | null {
  let i = 0;
  const top: BarLine[] = [];
  while (i < lines.length && EQUALS.test((lines[i] as BarLine).text)) top.push(lines[i++] as BarLine);
  const head: BarLine[] = [];
  while (i < lines.length && !isRule(lines[i] as BarLine)) head.push(lines[i++] as BarLine);
  const dash: BarLine[] = [];
  while (i < lines.length && DASHES.test((lines[i] as BarLine).text)) dash.push(lines[i++] as BarLine);
  const body: BarLine[] = [];
  while (i < lines.length && !EQUALS.test((lines[i] as BarLine).text)) body.push(lines[i++] as BarLine);
  const bottom: BarLine[] = [];
  while (i < lines.length && EQUALS.test((lines[i] as BarLine).text)) bottom.push(lines[i++] as BarLine);
  const first = top[0];
  if (!first || (head.length === 0 && dash.length === 0)) return null;

  const wrapped = top.length > 1;
  // the pieces of a wrapped rule are whole: it has no space to be wrapped at
  const rule = dash.map((l) => l.text.trim()).join('');
  const columns = dash.length > 0 ? pipes(rule) + 1 : 0;
  const closed = bottom.length > 0;
  const rows = assemble(body, columns, wrapped);
  const last = rows.at(-1);
  // a table cut short ends in the middle of its last line (a row has the width of its rules, unwrapped)
  const lastPiece = body.at(-1);
  const cut = !closed && last !== undefined && (!isWhole(last, columns) || (!wrapped && lastPiece !== undefined && lastPiece.text.trimEnd().length < first.text.trimEnd().length));
  const headerLines = assemble(head, columns, wrapped);
  return {
    line: first.line,
    headers: headersOf(headerLines),
    columns,
    rows: cut ? rows.slice(0, -1) : rows,
    closed,
    wrapped,
    headerAligned: columns === 0 || headerLines.slice(-2).every((l) => l.cells.length === columns),
    trailing: lines.slice(i),
  };
}

/** A line has as many cells as the table's `---` rule has columns, none empty (GuideLLM prints a number in each). */
export function isWhole(line: BarTableLine, columns: number): boolean {
  return line.cells.length === columns && line.cells.every((c) => c.text !== '');
}

function isRule(l: BarLine): boolean {
  return EQUALS.test(l.text) || DASHES.test(l.text);
}

function pipes(text: string): number {
  let n = 0;
  for (const c of text) if (c === '|') n++;
  return n;
}

/**
 * The lines of a table from their printed pieces. Unwrapped, a piece is a line. Wrapped, a line
 * goes on until it has its columns' `|` (one less than its columns) and a last cell: that cell
 * may be a piece of its own, with no `|`; a section line ends in `|` with no last cell. Without a
 * `---` rule (a table cut before it) a wrapped line cannot be told from the next.
 */
function assemble(pieces: readonly BarLine[], columns: number, wrapped: boolean): BarTableLine[] {
  if (!wrapped || columns === 0) return pieces.map((p) => new LineBuilder(p).done());
  const out: BarTableLine[] = [];
  let current: LineBuilder | null = null;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as BarLine;
    if (current) current.append(piece);
    else current = new LineBuilder(piece);
    const bars = current.cellCount - 1;
    if (bars < columns - 1) continue;
    const next = pieces[k + 1];
    if (bars === columns - 1 && current.lastCellBlank && next !== undefined && !next.text.includes('|')) continue;
    out.push(current.done());
    current = null;
  }
  // the last line of a table cut short
  if (current) out.push(current.done());
  return out;
}

/** A line's cells, gathered piece by piece: the first words of a piece end the cell the piece before ended in. */
class LineBuilder {
  readonly #cells: { raw: string; line: number }[];
  readonly #line: number;

  constructor(first: BarLine) {
    this.#line = first.line;
    this.#cells = first.text.split('|').map((raw) => ({ raw, line: first.line }));
  }

  get cellCount(): number {
    return this.#cells.length;
  }

  get lastCellBlank(): boolean {
    return (this.#cells.at(-1)?.raw.trim() ?? '') === '';
  }

  append(piece: BarLine): void {
    const [head = '', ...rest] = piece.text.split('|');
    const last = this.#cells.at(-1);
    if (last && head.trim() !== '') {
      // rich wrapped at the space before `head`: one space puts a header back (`Duration` `(s)`)
      if (last.raw.trim() === '') last.line = piece.line;
      last.raw = last.raw.trim() === '' ? head : `${last.raw.trimEnd()} ${head.trimStart()}`;
    }
    for (const raw of rest) this.#cells.push({ raw, line: piece.line });
  }

  done(): BarTableLine {
    return { cells: this.#cells.map((c) => ({ text: c.raw.trim(), line: c.line })), line: this.#line };
  }
}

/**
 * Column headers from the lines above the `---` rule: the last one names the columns; the one
 * before it, when there is one, names their sections, each written once over the columns it spans.
 */
function headersOf(lines: readonly BarTableLine[]): BarColumnHeader[] {
  const names = lines.at(-1)?.cells ?? [];
  const sectionLine = lines.length > 1 ? lines.at(-2) : undefined;
  const sections: string[] = [];
  for (const cell of sectionLine?.cells ?? []) sections.push(cell.text === '' ? (sections.at(-1) ?? '') : cell.text);
  return names.map((n, j) => ({ section: sections[j] ?? '', name: n.text }));
}
