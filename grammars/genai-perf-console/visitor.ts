import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childNodes, childTokens } from '../../src/parse/chevrotain.js';
import { lookupTable } from '../../src/core/cells.js';

/** One body row of a box table, split into trimmed cells. */
export interface TableRow {
  readonly cells: readonly string[];
  readonly line: number;
}

export interface ConsoleTable {
  readonly kind: 'table';
  /** `NVIDIA AIPerf | LLM Metrics: Spec Decode`, trimmed; null when the table has no title line. */
  readonly title: string | null;
  readonly line: number;
  readonly header: readonly string[];
  readonly rows: readonly TableRow[];
  /** False when the top border is missing (rows of a table broken by a line written into it). */
  readonly opened: boolean;
  /** False when the bottom border is missing (a table cut short). */
  readonly closed: boolean;
  /** The lines another process wrote into it, passed over (InterleavedLine). */
  readonly interleaved: readonly number[];
}

export interface LooseLine {
  readonly kind: 'cli' | 'metric' | 'duration' | 'panel' | 'other';
  readonly text: string;
  readonly line: number;
}

export type ConsoleItem = ConsoleTable | LooseLine;

const KINDS: Readonly<Record<string, LooseLine['kind']>> = lookupTable({ CliCommand: 'cli', MetricLine: 'metric', DurationLine: 'duration', Panel: 'panel' });


/** Walks the CST of `document` into tables and loose lines, in document order. */
export function toItems(document: CstNode): ConsoleItem[] {
  const items: ConsoleItem[] = [];
  for (const node of byOffset([...childNodes(document, 'table'), ...childNodes(document, 'looseLine')])) {
    if (node.name === 'table') {
      const table = toTable(node);
      if (table) items.push(table);
      continue;
    }
    const [t] = byOffset(['Panel', 'CliCommand', 'MetricLine', 'DurationLine', 'BottomRule', 'InterleavedLine', 'OtherLine'].flatMap((k) => childTokens(node, k)));
    if (!t) continue;
    const kind = KINDS[t.tokenType.name] ?? 'other';
    items.push({ kind, text: t.image.trim(), line: t.startLine ?? 1 });
  }
  return items;
}

function toTable(node: CstNode): ConsoleTable | null {
  const title = childTokens(node, 'TitleLine')[0];
  const frame = [...childNodes(node, 'frame')][0];
  const first = title ?? (frame ? byOffset(['TopRule', 'HeaderRow', 'HeaderRule', 'BodyRow'].flatMap((k) => childTokens(frame, k)))[0] : undefined);
  if (!first) return null;
  const headerRows = frame ? childTokens(frame, 'HeaderRow') : [];
  const header = headerRows.length > 0 ? joinHeaderRows(headerRows.map((t) => splitRow(t.image, '┃'))) : [];
  const rows = frame ? byOffset(childTokens(frame, 'BodyRow')).map((t) => ({ cells: splitRow(t.image, '│'), line: t.startLine ?? 1 })) : [];
  return {
    kind: 'table',
    title: title ? title.image.trim() : null,
    line: first.startLine ?? 1,
    header,
    rows,
    opened: frame !== undefined && childTokens(frame, 'TopRule').length > 0,
    closed: frame !== undefined && childTokens(frame, 'BottomRule').length > 0,
    interleaved: [...childTokens(node, 'InterleavedLine'), ...(frame ? childTokens(frame, 'InterleavedLine') : [])].map((t) => t.startLine ?? 1).sort((a, b) => a - b),
  };
}

/** `│  Time to First Token │ 23.17 │` → [`Time to First Token`, `23.17`]. */
function splitRow(image: string, bar: string): string[] {
  const inner = image.trim().replace(new RegExp(`^${bar}|${bar}$`, 'g'), '');
  return inner.split(bar).map((c) => c.trim());
}

/** A header wrapped over several rows: cells are joined column by column. */
function joinHeaderRows(rows: readonly string[][]): string[] {
  const width = Math.max(...rows.map((r) => r.length));
  return Array.from({ length: width }, (_, i) =>
    rows
      .map((r) => r[i] ?? '')
      .filter((c) => c !== '')
      .join(' '),
  );
}
