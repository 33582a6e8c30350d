import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { TextSource } from '../../../src/core/grammar.js';
import type { RelPath } from '../../../src/core/types.js';
import { linesNamed, type TypedLine } from '../../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../../src/parse/pieces.js';
import type { ResultGrammar } from './parser.js';

export { type ResultGrammar, resultGrammar, type ResultTokens } from './parser.js';

/**
 * The first lines and statistic lines of a source, in line order, parsed a piece at a time (each
 * piece cut before a first line: src/parse/pieces.ts).
 */
export function resultLinesOf(source: TextSource, grammar: ResultGrammar): TypedLine[] {
  const { head, stats } = grammar.tokens;
  const names = new Set([head.name, ...stats.map((t) => t.name)]);
  const cutsBefore = (i: number): boolean => grammar.startsResult(source.lines[i] as string);
  const lines: TypedLine[] = [];
  for (const piece of lexedPieces(source.lines, cutsBefore, (text) => grammar.lexer().tokenize(text))) {
    for (const l of linesNamed(parseTokens(grammar.parser(), piece.tokens, (p) => p.document()), names)) lines.push(l);
  }
  return lines;
}

/** A result printed as a first line and the lines of its statistics below it. */
export interface ResultLines {
  readonly head: TypedLine;
  readonly lines: readonly TypedLine[];
  /** Its last line (1-based). */
  readonly last: number;
}

/**
 * Results of a format that prints a first line and then one line per statistic (`Avg latency:` then
 * percentiles): a statistic belongs to the result above it, up to the next first line, even with
 * lines interleaved (a tee'd log). One the result already has is a `block/duplicate-label` (the
 * first is kept: the first line of the next result may have been lost); those above every first
 * line are said in one `block/headless` warning.
 * `keyOf` names the statistic a line holds.
 */
export function groupResults(
  lines: readonly TypedLine[],
  isHead: (l: TypedLine) => boolean,
  keyOf: (l: TypedLine) => string,
  file: RelPath,
  sink: DiagnosticSink,
): ResultLines[] {
  const results: ResultLines[] = [];
  let open: { head: TypedLine; lines: TypedLine[]; keys: Set<string>; last: number } | null = null;
  let strays = 0;
  let firstStray = 0;
  for (const l of lines) {
    if (isHead(l)) {
      if (open) results.push(open);
      open = { head: l, lines: [], keys: new Set(), last: l.line };
      continue;
    }
    const key = keyOf(l);
    if (!open) {
      if (strays++ === 0) firstStray = l.line;
      continue;
    }
    if (open.keys.has(key)) {
      sink.report('block/duplicate-label', { file, line: l.line, column: 1 }, labelAndValue(l).label);
      continue;
    }
    open.keys.add(key);
    open.lines.push(l);
    open.last = l.line;
  }
  if (open) results.push(open);
  // a result's statistics whose first line is missing (a paste that left it out): no run is made of them
  if (strays > 0) sink.report('block/headless', { file, line: firstStray, column: 1 }, strays);
  return results.map((r) => ({ head: r.head, lines: r.lines, last: r.last }));
}

/**
 * Maps results in order, giving each the 0-based index of the previous one's last line (-1 for the
 * first): how far up its label and its argument dump are looked for.
 */
export function withFloors<T>(results: readonly ResultLines[], f: (r: ResultLines, floor: number) => T): T[] {
  let floor = -1;
  return results.map((r) => {
    const out = f(r, floor);
    floor = r.last - 1;
    return out;
  });
}

/** A statistic line's label and value text, around its first `:` (for diagnostics). */
export function labelAndValue(l: TypedLine): { label: string; value: string } {
  const colon = l.text.indexOf(':');
  return colon < 0 ? { label: l.text.trim(), value: '' } : { label: l.text.slice(0, colon).trim(), value: l.text.slice(colon + 1).trim() };
}
