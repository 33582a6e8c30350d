import type { IToken } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childNodes, childTokens } from '../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { boxTableParser } from './parser.js';
import { boxTableLexer, TABLE_LINE } from './tokens.js';

/**
 * The drawn tables EvalScope prints, read into header and rows whatever drew them: `tabulate`'s
 * `grid` (`+---+`, `+===+` under the header) and `pretty` (`+---+` around the header), its
 * `simple_outline` (`┌─┬┐`, `├─┼┤` under the header), and `rich`'s default box (`┏━┳┓`, `┃`
 * header lines, `┡━╇┩`, `│` rows, `├─┼┤` between sections, `└─┴┘`). A row is one line of cells
 * split at the box's vertical bars; a header cell `rich` wrapped over several lines is joined.
 */

/** One printed table: its title line above (if any), header cells, rows with their lines. */
export interface BoxTable {
  /** Text of the nearest line above the top border (a `logger.info` heading or a rich title), or null. */
  readonly title: string | null;
  /** 1-based line of the top border. */
  readonly line: number;
  /** 1-based line of the last line of the table. */
  readonly lastLine: number;
  readonly header: readonly string[];
  readonly rows: readonly BoxRow[];
  /** False when the text ends before the table's bottom border. */
  readonly closed: boolean;
}

export interface BoxRow {
  readonly cells: readonly string[];
  readonly line: number;
  /** 0 for the rows above the first section rule, 1 after it, … (rich `add_section`). */
  readonly section: number;
}

/**
 * Every table in `lines` (already without log prefixes), in order, as the box-table grammar reads
 * them (tokens.ts, parser.ts): the lines of cells above a table's first inner rule are its header
 * (none when it has no inner rule: rich's header-less tables), each line below one row.
 */
export function readBoxTables(lines: readonly string[]): BoxTable[] {
  const tables: BoxTable[] = [];
  // in pieces (src/parse/pieces.ts) cut before a line that is no table's: a table ends there
  const cutsBefore = (i: number): boolean => !TABLE_LINE.test(lines[i] as string);
  for (const piece of lexedPieces(lines, cutsBefore, (text) => boxTableLexer().tokenize(text))) {
    const document = parseTokens(boxTableParser(), piece.tokens, (p) => p.document());
    for (const node of byOffset([...childNodes(document, 'table')])) {
      const tokens = byOffset(TABLE_TOKENS.flatMap((name) => childTokens(node, name)));
      for (let from = 0; from < tokens.length; ) from = readTable(tokens, from, lines, tables);
    }
  }
  return tables;
}

const TABLE_TOKENS = ['AsciiBorder', 'BoxTop', 'CellLine', 'BoxRule', 'BoxBottom'];

/**
 * The table whose top border is tokens[from], added to `tables`; returns where the next one starts
 * (tabulate's grid prints its bottom rule like its top one: a rule with no cells after it closes
 * the table, and a rule right under it is the top of the next).
 */
function readTable(tokens: readonly IToken[], from: number, lines: readonly string[], tables: BoxTable[]): number {
  const top = tokens[from] as IToken;
  const groups: { cells: string[][]; lines: number[] }[] = [{ cells: [], lines: [] }];
  let inner = 0;
  let closed = false;
  let last = top;
  let j = from + 1;
  for (; j < tokens.length; j++) {
    const t = tokens[j] as IToken;
    last = t;
    const kind = t.tokenType.name;
    if (kind === 'CellLine') {
      const g = groups[groups.length - 1] as { cells: string[][]; lines: number[] };
      g.cells.push(cellsOf(t.image.trim()));
      g.lines.push(t.startLine ?? 1);
      continue;
    }
    if (kind === 'BoxBottom' || (kind === 'AsciiBorder' && tokens[j + 1]?.tokenType.name !== 'CellLine')) {
      closed = true;
      j++;
      break;
    }
    inner++;
    groups.push({ cells: [], lines: [] });
  }
  const hasHeader = inner > 0 && (groups[0]?.cells.length ?? 0) > 0;
  const header = hasHeader ? joinColumns((groups[0] as { cells: string[][] }).cells) : [];
  const rows: BoxRow[] = [];
  // tabulate's grid rules every row: only rich's rules (between header and rows, then sections) count
  const ascii = top.tokenType.name === 'AsciiBorder';
  let section = 0;
  groups.slice(hasHeader ? 1 : 0).forEach((g, k) => {
    if (k > 0 && !ascii && g.cells.length > 0) section++;
    g.cells.forEach((cells, n) => rows.push({ cells, line: g.lines[n] as number, section }));
  });
  const line = top.startLine ?? 1;
  tables.push({ title: titleAbove(lines, line - 1), line, lastLine: last.startLine ?? line, header, rows, closed });
  return j;
}

function cellsOf(text: string): string[] {
  const bar = text[0] as string;
  // rich draws the header with ┃ and the body with │; each line uses one of them throughout
  const parts = text.split(bar === '┃' ? /┃/ : bar === '│' ? /│/ : /\|/);
  return parts.slice(1, -1).map((c) => c.trim());
}

/** Header lines joined cell by cell: rich wraps `Avg Lat.(s)` over two lines. */
function joinColumns(lines: readonly string[][]): string[] {
  const width = Math.max(0, ...lines.map((l) => l.length));
  const out: string[] = [];
  for (let i = 0; i < width; i++) out.push(lines.map((l) => l[i] ?? '').filter((c) => c !== '').join(' '));
  return out;
}

/** The nearest non-blank line within two lines above a table, unless it is another table's. */
function titleAbove(lines: readonly string[], start: number): string | null {
  for (let k = start - 1; k >= Math.max(0, start - 2); k--) {
    const text = (lines[k] as string).trim();
    if (text === '') continue;
    return TABLE_LINE.test(text) ? null : text;
  }
  return null;
}
