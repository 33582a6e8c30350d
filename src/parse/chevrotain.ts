import { createToken, type CstNode, type CustomPatternMatcherReturn, type IToken, type TokenType } from './chevrotain-runtime.js';

/** What tells whether a line is of a kind: a regular expression, or a test that looks for a literal first. */
export interface LinePattern {
  test(line: string): boolean;
}

/**
 * A token that matches one whole line (from a line start to before its `\n`) when `re` matches
 * the line's text. Line-level tokens let a Chevrotain parser describe the block structure of
 * text reports (header, sections, label/value lines, footer) while the line's own fields are read
 * by the visitor.
 */
export function lineToken(name: string, re: LinePattern): TokenType {
  return createToken({
    name,
    line_breaks: false,
    pattern: {
      exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
        if (offset > 0 && text.charCodeAt(offset - 1) !== 10) return null;
        let end = text.indexOf('\n', offset);
        if (end < 0) end = text.length;
        if (end === offset) return null;
        const line = text.slice(offset, end);
        if (!re.test(line)) return null;
        return [line] as CustomPatternMatcherReturn;
      },
    },
  });
}

/**
 * A table's title: a short text line (at most 160 characters) that `isTitle` accepts, followed by
 * text `opensTable` accepts (a console table's top rule, which the title is printed with): it is
 * given the next line whole, or the next 2,000 characters if that is more.
 */
export function titleLineToken(isTitle: (line: string) => boolean, opensTable: (following: string) => boolean): TokenType {
  return createToken({
    name: 'TitleLine',
    line_breaks: false,
    pattern: {
      exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
        if (offset > 0 && text.charCodeAt(offset - 1) !== 10) return null;
        const end = text.indexOf('\n', offset);
        // (an empty match would stop the lexer where it stands, forever)
        if (end <= offset || end - offset > 160) return null;
        const line = text.slice(offset, end);
        if (!isTitle(line)) return null;
        const nextEnd = text.indexOf('\n', end + 1);
        // the next line, and enough after it to look past a few lines (see genai-perf-console's)
        const following = text.slice(end + 1, Math.max(end + 2001, nextEnd < 0 ? text.length : nextEnd));
        return opensTable(following) ? ([line] as CustomPatternMatcherReturn) : null;
      },
    },
  });
}

/** The line separator token every line-level lexer ends with. */
export function newlineToken(): TokenType {
  return createToken({ name: 'Newline', pattern: /\n/, line_breaks: true });
}

/** Sorts CST tokens or nodes back into document order (CST children are grouped by name). */
export function byOffset<T extends { startOffset: number } | { location?: { startOffset: number } }>(items: T[]): T[] {
  const off = (x: T): number => ('startOffset' in x ? x.startOffset : (x.location?.startOffset ?? 0));
  return items.sort((a, b) => off(a) - off(b));
}

/**
 * `start_chars_hint` for a catch-all token written as a complement set: every printable ASCII
 * character and the Latin-1/Unicode letters below U+0800 except `excluded`. Chevrotain cannot
 * derive first characters from a complement (its COMPLEMENT lexer warning), and without the hint
 * the whole lexer loses its first-character optimization.
 */
export function complementHint(excluded: string): number[] {
  const codes: number[] = [];
  for (let c = 33; c < 0x800; c++) {
    if (c >= 127 && c < 160) continue;
    if (!excluded.includes(String.fromCharCode(c))) codes.push(c);
  }
  return codes;
}

/** A CST node's child tokens of one name; tokens a recovering parser inserted (no position) are left out. */
export function childTokens(node: CstNode, name: string): IToken[] {
  return ((node.children[name] as IToken[] | undefined) ?? []).filter((t) => Number.isFinite(t.startLine));
}

/** A CST node's child nodes of one rule name. */
export function childNodes(node: CstNode, name: string): CstNode[] {
  return (node.children[name] as CstNode[] | undefined) ?? [];
}

/** A line of a line-token document: its token's name, text and 1-based line. */
export interface TypedLine {
  readonly type: string;
  readonly text: string;
  readonly line: number;
}

/**
 * Every token anywhere under a CST node but its newlines, in document order; tokens a recovering
 * parser inserted (no position) are left out.
 */
export function positionedTokens(node: CstNode): IToken[] {
  const out: IToken[] = [];
  const walk = (n: CstNode) => {
    for (const children of Object.values(n.children)) {
      for (const child of children) {
        if ('children' in child) walk(child);
        else if (child.tokenType.name !== 'Newline' && Number.isFinite(child.startLine)) out.push(child);
      }
    }
  };
  walk(node);
  return byOffset(out);
}

/** The tokens of the given names anywhere in a CST, as lines in line order (positionedTokens). */
export function linesNamed(node: CstNode, names: ReadonlySet<string>): TypedLine[] {
  return positionedTokens(node)
    .filter((t) => names.has(t.tokenType.name))
    .map(lineOf);
}

function lineOf(t: IToken): TypedLine {
  return { type: t.tokenType.name, text: t.image, line: t.startLine ?? 1 };
}
