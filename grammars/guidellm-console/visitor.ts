import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childNodes, childTokens } from '../../src/parse/chevrotain.js';

/** One line of a table: a rule or a row. */
export interface TableLine {
  readonly kind: 'heavy' | 'dash' | 'row';
  readonly text: string;
  readonly line: number;
}

/** Table lines with nothing between them, and the title line right above them when there is one. */
export interface Frame {
  readonly kind: 'frame';
  /** `Run Summary Info` (the `ℹ` icon left out); null when no text line is right above the rule. */
  readonly title: string | null;
  readonly titleLine: number | null;
  readonly lines: readonly TableLine[];
}

/** The lines of a GuideLLM 0.2 / 0.3 table from its `=` rule on, as printed (v03-table.ts reads them). */
export interface BarFrame {
  readonly kind: 'bars';
  readonly lines: readonly BarLine[];
  /** Lines another process wrote into it (InterleavedLine: a progress bar, whose `|` keeps it inside), passed over. */
  readonly interleaved: readonly number[];
}

/** One line of a BarFrame, untrimmed. */
export interface BarLine {
  readonly text: string;
  readonly line: number;
}

/**
 * A line outside the tables: the backend's model, another GuideLLM status line, a 0.2 / 0.3 section
 * title (`Benchmarks Info:`), anything else.
 */
export interface LooseLine {
  /** `interleaved`: a line another process wrote (InterleavedLine), outside a table. */
  readonly kind: 'model' | 'status' | 'section' | 'interleaved' | 'other';
  readonly text: string;
  readonly line: number;
}

export type ConsoleItem = Frame | BarFrame | LooseLine;

const TABLE_LINE_KINDS = { HeavyRule: 'heavy', DashRule: 'dash', PipeRow: 'row' } as const;
const BAR_LINE_TOKENS = ['EqualsRule', 'BarRow', 'LonePiece', 'PipeRow', 'DashRule'] as const;
const LOOSE_KINDS = {
  ModelLine: 'model',
  StatusLine: 'status',
  PlainStatusLine: 'status',
  SectionTitle: 'section',
  // a line with a `|` or of one word outside a 0.2 / 0.3 table is any other line
  BarRow: 'other',
  LonePiece: 'other',
  InterleavedLine: 'interleaved',
  OtherLine: 'other',
} as const;

/** Walks the CST of `document` into frames and loose lines, in document order. */
export function toItems(document: CstNode): ConsoleItem[] {
  const items: ConsoleItem[] = [];
  for (const node of byOffset([...childNodes(document, 'table'), ...childNodes(document, 'barFrame'), ...childNodes(document, 'looseLine')])) {
    if (node.name === 'table') {
      const frame = toFrame(node);
      if (frame) items.push(frame);
      continue;
    }
    if (node.name === 'barFrame') {
      const lines = byOffset(BAR_LINE_TOKENS.flatMap((name) => childTokens(node, name))).map((t) => ({ text: t.image, line: t.startLine ?? 1 }));
      const interleaved = childTokens(node, 'InterleavedLine').map((t) => t.startLine ?? 1);
      if (lines.length > 0) items.push({ kind: 'bars', lines, interleaved });
      continue;
    }
    for (const [name, kind] of Object.entries(LOOSE_KINDS)) {
      for (const t of childTokens(node, name)) items.push({ kind, text: t.image.trim(), line: t.startLine ?? 1 });
    }
  }
  return items;
}

function toFrame(node: CstNode): Frame | null {
  const title = childTokens(node, 'TitleLine')[0];
  const lines: TableLine[] = [];
  for (const frame of childNodes(node, 'frame')) {
    const tokens = byOffset(Object.keys(TABLE_LINE_KINDS).flatMap((name) => childTokens(frame, name)));
    for (const t of tokens) lines.push({ kind: TABLE_LINE_KINDS[t.tokenType.name as keyof typeof TABLE_LINE_KINDS], text: t.image, line: t.startLine ?? 1 });
  }
  if (!title && lines.length === 0) return null;
  return { kind: 'frame', title: title ? titleText(title.image) : null, titleLine: title?.startLine ?? null, lines };
}

/** `ℹ Run Summary Info` → `Run Summary Info`. */
function titleText(image: string): string {
  return image.trim().replace(/^ℹ\s*/, '');
}
