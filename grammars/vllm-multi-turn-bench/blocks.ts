import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childNodes, positionedTokens } from '../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { multiTurnParser } from './parser.js';
import { cleanLine, words } from './text.js';
import { INVOCATION_START, multiTurnLexer, PARAM_LINE, SERVED_MODEL, SERVER_VERSION, SUMMARY_TITLE, SUMMARY_VALUE } from './tokens.js';

/** One printed line of a summary's `key = value` part. */
export interface SummaryValueLine {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** One metric's row of the describe table: the cells by statistic name (`count`, `mean`, `50%`, …). */
export interface StatRow {
  readonly name: string;
  readonly cells: Map<string, string>;
  readonly line: number;
  /** Cells short of the header's count (a line cut in the middle): [found, expected]. */
  short: readonly [number, number] | null;
}

/** One `Statistics summary` block as printed. */
export interface SummaryBlock {
  readonly kind: 'summary';
  readonly line: number;
  /** 50 for `(assuming 50% warmup samples)`; null for a plain `Statistics summary:`. */
  readonly warmupPercent: number | null;
  readonly values: readonly SummaryValueLine[];
  readonly rows: readonly StatRow[];
  /** Line of the (first) table header; null when the block has no table. */
  readonly tableLine: number | null;
  /** False when the text ends (or other text begins) before the separator closing the table. */
  readonly closed: boolean;
  readonly lastLine: number;
}

/** A `key=value` line (Parameters block, logged input parameters). */
export interface ParamItem {
  readonly kind: 'param';
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** The start of an invocation's output: `Namespace(...)` (its text kept), `Input parameters:`, or a new `Parameters:` title. */
export interface InvocationItem {
  readonly kind: 'invocation';
  readonly line: number;
  readonly namespace: string | null;
  /** True for a `Parameters:` title (printed, not logged): a new invocation only after a summary. */
  readonly printed: boolean;
}

/** What `get_server_info` logged: the server's `/version` body, or one model `/v1/models` lists. */
export type ServerInfoItem =
  | { readonly kind: 'server-version'; readonly body: string; readonly line: number }
  | { readonly kind: 'served-model'; readonly modelId: string; readonly maxModelLen: number | null; readonly line: number };

export type MultiTurnItem = SummaryBlock | ParamItem | InvocationItem | ServerInfoItem;

/**
 * The items of a source in order, read a piece at a time (src/parse/pieces.ts), each piece cut
 * only before a summary's title or an invocation's first log line, where the parse starts afresh.
 */
export function* multiTurnItems(lines: readonly string[]): Generator<MultiTurnItem> {
  const cutsBefore = (i: number): boolean => {
    const text = cleanLine(lines[i] as string);
    return SUMMARY_TITLE.test(text) || INVOCATION_START.test(text);
  };
  for (const piece of lexedPieces(lines, cutsBefore, (text) => multiTurnLexer().tokenize(text), cleanLine)) {
    yield* parseTokens(multiTurnParser(), piece.tokens, (p) => itemsOf(p.document()));
  }
}

function itemsOf(document: CstNode): MultiTurnItem[] {
  const nodes = byOffset([...childNodes(document, 'summary'), ...childNodes(document, 'looseLine')]);
  const items: MultiTurnItem[] = [];
  for (const node of nodes) {
    if (node.name === 'summary') {
      const block = summaryOf(node);
      if (block) items.push(block);
      continue;
    }
    const token = positionedTokens(node)[0];
    if (!token) continue;
    const line = token.startLine ?? 1;
    switch (token.tokenType.name) {
      case 'InvocationStart':
        items.push({ kind: 'invocation', line, namespace: token.image.startsWith('Namespace(') ? token.image : null, printed: false });
        break;
      case 'ParamsTitle':
        if (token.image === 'Parameters:') items.push({ kind: 'invocation', line, namespace: null, printed: true });
        break;
      case 'ServerVersion':
        items.push({ kind: 'server-version', body: SERVER_VERSION.exec(token.image)?.[1] ?? '', line });
        break;
      case 'ServedModel': {
        const m = SERVED_MODEL.exec(token.image);
        if (m) items.push({ kind: 'served-model', modelId: m[1] ?? m[2] ?? '', maxModelLen: /^\d+$/.test(m[3] as string) ? Number(m[3]) : null, line });
        break;
      }
      case 'ParamLine': {
        const m = PARAM_LINE.exec(token.image);
        if (m) items.push({ kind: 'param', key: m[1] as string, value: (m[2] as string).trim(), line });
        break;
      }
    }
  }
  return items;
}


function summaryOf(node: CstNode): SummaryBlock | null {
  const tokens = positionedTokens(node);
  const title = tokens[0];
  if (!title || title.tokenType.name !== 'SummaryTitle') return null;
  const warmup = SUMMARY_TITLE.exec(title.image)?.[1];
  const values: SummaryValueLine[] = [];
  const rows = new Map<string, StatRow>();
  let header: string[] | null = null;
  let tableLine: number | null = null;
  let closed = false;
  let lastLine = title.startLine ?? 1;
  for (const t of tokens.slice(1)) {
    const line = t.startLine ?? 1;
    lastLine = Math.max(lastLine, line);
    switch (t.tokenType.name) {
      case 'SummaryValue': {
        const m = SUMMARY_VALUE.exec(t.image);
        if (m) values.push({ key: m[1] as string, value: m[2] as string, line });
        break;
      }
      case 'Separator':
        if (tableLine !== null) closed = true;
        break;
      case 'TableHeader':
        header = words(t.image);
        tableLine ??= line;
        break;
      case 'TableRow':
        if (header) addRow(rows, header, words(t.image), line);
        break;
    }
  }
  return { kind: 'summary', line: title.startLine ?? 1, warmupPercent: warmup === undefined ? null : Number(warmup), values, rows: [...rows.values()], tableLine, closed, lastLine };
}

/** A row's cells under the header of its chunk (pandas repeats the row names in each wrapped chunk). */
function addRow(rows: Map<string, StatRow>, header: readonly string[], row: readonly string[], line: number): void {
  const name = row[0] as string;
  // a row shorter than its header was cut: its last cell may be a number cut short (`1` of `1998.53`)
  const cut = row.length - 1 < header.length;
  const cells = row.slice(1, cut ? -1 : undefined);
  let target = rows.get(name);
  if (!target) {
    target = { name, cells: new Map(), line, short: null };
    rows.set(name, target);
  }
  header.forEach((stat, k) => {
    const cell = cells[k];
    if (cell !== undefined && stat !== '...' && !target.cells.has(stat)) target.cells.set(stat, cell);
  });
  if (cut) target.short = [row.length - 1, header.length];
}
