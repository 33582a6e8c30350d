import type { CstNode, IToken } from '../../../src/parse/chevrotain-runtime.js';
import { byOffset } from '../../../src/parse/chevrotain.js';

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
    if (kv) items.push({ kind: 'kv', ...splitLabel(kv.image), line: kv.startLine ?? 0 });
  }
  return items;
}

function toBlock(node: CstNode): ServingBlock | null {
  const header = (node.children.BlockHeader as IToken[] | undefined)?.[0];
  if (!header || !Number.isFinite(header.startLine)) return null;
  const tokens = byOffset(
    ['KvLine', 'SectionRule', 'BareLabel'].flatMap((k) => ((node.children[k] as IToken[] | undefined) ?? []).filter((t) => Number.isFinite(t.startLine))),
  );
  const footer = (node.children.Footer as IToken[] | undefined)?.find((t) => Number.isFinite(t.startLine));
  const entries: BlockEntry[] = [];
  const interleaved = ((node.children.LogLine as IToken[] | undefined) ?? []).map((t) => t.startLine ?? 0).filter(Number.isFinite);
  let section: string | null = null;
  let endLine = header.startLine ?? 0;
  for (const t of tokens) {
    endLine = Math.max(endLine, t.startLine ?? 0);
    if (t.tokenType.name === 'SectionRule') {
      section = sectionTitle(t.image);
    } else if (t.tokenType.name === 'BareLabel') {
      section = t.image.replace(/:$/, '').trim();
    } else {
      entries.push({ ...splitLabel(t.image), line: t.startLine ?? 0, section });
    }
  }
  if (footer) endLine = footer.startLine ?? endLine;
  return { kind: 'block', title: headerTitle(header.image), line: header.startLine ?? 0, endLine, footer: footer !== undefined, entries, interleaved };
}

function splitLabel(image: string): { label: string; value: string } {
  const i = image.search(/:\s/);
  if (i < 0) return { label: image.trim(), value: '' };
  return { label: image.slice(0, i).trim(), value: image.slice(i + 1).trim() };
}

function headerTitle(image: string): string {
  return image.replace(/^=+|=+$/g, '').trim();
}

function sectionTitle(image: string): string | null {
  const t = image.replace(/^-+|-+$/g, '').trim();
  return t === '' ? null : t;
}
