import type { CstNode, IToken } from '../../../src/parse/chevrotain-runtime.js';
import { byOffset } from '../../../src/parse/chevrotain.js';
import type { Splice } from './splices.js';

/** One `label: value` line inside a block, with the section it sits in. */
export interface BlockEntry {
  readonly label: string;
  readonly value: string;
  readonly line: number;
  readonly section: string | null;
}

export interface ServingBlock {
  readonly kind: 'block';
  readonly title: string;
  readonly line: number;
  /** Last line that belongs to the block (the footer when there is one). */
  readonly endLine: number;
  readonly footer: boolean;
  readonly entries: readonly BlockEntry[];
  /** Lines of server log output interleaved into the block (skipped, counted). */
  readonly interleaved: readonly number[];
  /** Lines of the block that server output split in two, put back together (reported). */
  readonly spliced: readonly Splice[];
  /** Blank or foreign lines the block was read across to its footer (resume.ts; skipped, reported). */
  readonly gaps: readonly number[];
  /** Of those, the ones with numbers: a progress bar, or part of a block line another writer cut (a value may be missing). */
  readonly suspectGaps: readonly number[];
}

/** A `label: value` line outside any block: preamble lines such as `Traffic request rate: inf`. */
export interface LooseEntry {
  readonly kind: 'kv';
  readonly label: string;
  readonly value: string;
  readonly line: number;
}

export type ServingItem = ServingBlock | LooseEntry;

/** Walks the CST of `document` into blocks and loose label/value lines, in document order. */
export function toItems(document: CstNode): ServingItem[] {
  const nodes = byOffset([...((document.children.block as CstNode[] | undefined) ?? []), ...((document.children.looseLine as CstNode[] | undefined) ?? [])]);
  const items: ServingItem[] = [];
  for (const node of nodes) {
    if (node.name === 'block') {
      const block = toBlock(node);
      if (block) items.push(block);
      continue;
    }
    const kv = (node.children.KvLine as IToken[] | undefined)?.[0];
    if (kv) {
      const { label, value } = splitLabel(kv.image);
      items.push({ kind: 'kv', label, value, line: kv.startLine ?? 0 });
    }
  }
  return items;
}

const BLOCK_LINE_KINDS = ['KvLine', 'SectionRule', 'BareLabel'] as const;

function toBlock(node: CstNode): ServingBlock | null {
  const header = (node.children.BlockHeader as IToken[] | undefined)?.[0];
  if (!header || !Number.isFinite(header.startLine)) return null;
  // the three kinds of line in document order (CST children are grouped by kind); recovered tokens have no line
  const tokens: IToken[] = [];
  for (const kind of BLOCK_LINE_KINDS) for (const t of (node.children[kind] as IToken[] | undefined) ?? []) if (Number.isFinite(t.startLine)) tokens.push(t);
  tokens.sort((a, b) => a.startOffset - b.startOffset);
  const footer = (node.children.Footer as IToken[] | undefined)?.find((t) => Number.isFinite(t.startLine));
  const entries: BlockEntry[] = [];
  const interleaved = linesOf(node, 'LogLine');
  let section: string | null = null;
  let endLine = header.startLine ?? 0;
  for (const t of tokens) {
    endLine = Math.max(endLine, t.startLine ?? 0);
    if (t.tokenType.name === 'SectionRule') {
      section = sectionTitle(t.image);
    } else if (t.tokenType.name === 'BareLabel') {
      section = t.image.replace(/:$/, '').trim();
    } else {
      const { label, value } = splitLabel(t.image);
      entries.push({ label, value, line: t.startLine ?? 0, section });
    }
  }
  if (footer) endLine = footer.startLine ?? endLine;
  return { kind: 'block', title: headerTitle(header.image), line: header.startLine ?? 0, endLine, footer: footer !== undefined, entries, interleaved, spliced: [], gaps: linesOf(node, 'GapLine'), suspectGaps: [] };
}

function linesOf(node: CstNode, kind: string): number[] {
  return ((node.children[kind] as IToken[] | undefined) ?? []).map((t) => t.startLine ?? 0).filter(Number.isFinite);
}

/** A `label: value` line's label and value. */
export function splitLabel(image: string): { label: string; value: string } {
  const i = labelEnd(image);
  if (i < 0) return { label: image.trim(), value: '' };
  return { label: image.slice(0, i).trim(), value: image.slice(i + 1).trim() };
}

const SPACE = /\s/;

/** Where `/:\s/` would match, without a regular expression: this runs for every line of every block. */
function labelEnd(image: string): number {
  for (let i = image.indexOf(':'); i >= 0 && i + 1 < image.length; i = image.indexOf(':', i + 1)) {
    if (SPACE.test(image[i + 1] as string)) return i;
  }
  return -1;
}

function headerTitle(image: string): string {
  return image.replace(/^=+|=+$/g, '').trim();
}

function sectionTitle(image: string): string | null {
  const t = image.replace(/^-+|-+$/g, '').trim();
  return t === '' ? null : t;
}
