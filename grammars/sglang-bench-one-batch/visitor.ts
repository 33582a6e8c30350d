import type { CstNode, IToken } from '../../src/parse/chevrotain-runtime.js';
import { byOffset } from '../../src/parse/chevrotain.js';

/** One line of the output: its token's name and text. */
export interface OneBatchLine {
  readonly type: string;
  readonly text: string;
  readonly line: number;
}

/** One `Warmup ...` / `Benchmark ...` section with its measurement lines, in order. */
export interface OneBatchSection {
  readonly kind: 'warmup' | 'benchmark';
  readonly line: number;
  readonly lines: readonly OneBatchLine[];
}

/** Sections and the non-blank lines that belong to none. */
export interface OneBatchDocument {
  readonly sections: readonly OneBatchSection[];
  readonly loose: readonly OneBatchLine[];
}

export function oneBatchDocument(document: CstNode): OneBatchDocument {
  const sections = ((document.children.section as CstNode[] | undefined) ?? []).flatMap((s) => toSection(s));
  const loose = ((document.children.line as CstNode[] | undefined) ?? []).flatMap((l) => bodyTokens(l));
  return { sections: sections.sort((a, b) => a.line - b.line), loose: loose.sort((a, b) => a.line - b.line) };
}

function toSection(node: CstNode): OneBatchSection[] {
  const warmup = (node.children.Warmup as IToken[] | undefined)?.[0];
  const head = warmup ?? (node.children.Benchmark as IToken[] | undefined)?.[0];
  if (!head || !Number.isFinite(head.startLine)) return [];
  const lines = ((node.children.body as CstNode[] | undefined) ?? []).flatMap((b) => tokenOf(b));
  return [{ kind: warmup ? 'warmup' : 'benchmark', line: head.startLine ?? 1, lines: lines.sort((a, b) => a.line - b.line) }];
}

function bodyTokens(node: CstNode): OneBatchLine[] {
  return ((node.children.body as CstNode[] | undefined) ?? []).flatMap((b) => tokenOf(b));
}

function tokenOf(body: CstNode): OneBatchLine[] {
  const tokens = byOffset(Object.values(body.children).flat() as IToken[]);
  return tokens.filter((t) => Number.isFinite(t.startLine)).map((t) => ({ type: t.tokenType.name, text: t.image, line: t.startLine ?? 1 }));
}
