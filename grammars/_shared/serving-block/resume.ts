import { stripEmbedding, withoutWrapper } from '../../../src/parse/embedding.js';
import { parseTokens } from '../../../src/parse/pieces.js';
import { servingBlockParser } from './parser.js';
import { overwroteOutput } from '../interleaved-line.js';
import { isLogLine, type Splice } from './splices.js';
import { BARE_LABEL, BLOCK_HEADER, FOOTER, GAP_MARK, KV_LINE, PROGRESS_BAR, resumeLexer, SECTION_RULE } from './tokens.js';
import { type BlockEntry, type ServingBlock, type ServingItem, splitLabel, toItems } from './visitor.js';

/**
 * A result block ends at the first line that is not one of its lines: a blank line, or a line of
 * another program written into it (a Python warning's indented source line, `  warnings.warn(`,
 * which no line-level lexer can tell from text). When the block's own lines go on below such a gap
 * and reach its footer, the block is read across the gap instead of ending as a partial run with
 * its second part headless (both reported, the second part's values lost).
 *
 * Only when all of this holds: at most MAX_GAP_LINES gap lines in a row; nothing but the block's
 * kinds of line (label/value, section rule, bare label, a server's log line) and such gaps up to a
 * footer within MAX_RESUME_LINES; no block header on the way; no label given twice (a second block
 * that lost its header would repeat the first one's; an indented sub-item's, SGLang's `  Device:`
 * under each cache figure, may; so may the Rust multi-turn block's labels once in each `Turn N`
 * section, turns in order, never those above its first section); and a footer right after a gap's line of text
 * as wide as the header (vLLM and SGLang print both 50 wide; a Markdown heading's `=====` underline
 * comes right after its text, as wide as that).
 */
const MAX_GAP_LINES = 3;
/**
 * A gap line with a digit may be what is left of a block line (`Total input tokens: 1024` with a
 * progress bar's `\r` redraws after it, cleaned to the bar, when it cannot be put back together;
 * the `00` the client's next write began with; a line cut by a server's and not put back
 * together): the block is read across it all the same, with a warning that a value may be missing,
 * and the block line right after it, which may be the cut line's rest, is skipped with it.
 */
const HAS_DIGIT = /\d/;
const MAX_RESUME_LINES = 400;

/**
 * Given the items of `lines` one by one in document order, gives each back, or a block that ends
 * before its footer read on across its gaps where it can, or null for a loose line such a block
 * took. `splices` and `overwritten` (unsplice's, and the source's TextSource.overwritten) tell which
 * gap lines with numbers are not suspect. A function, not a generator over the items: it runs for
 * every item of every block file (a generator's steps cost a few µs a file).
 */
export function blockResumer(lines: readonly string[], splices: readonly Splice[], overwritten?: ReadonlyMap<number, string>): (item: ServingItem) => ServingItem | null {
  let lostNothing: ((line: number) => boolean) | null = null;
  // 1-based: the lines up to here belong to the last block given
  let taken = 0;
  return (parsed) => {
    if (parsed.line <= taken) return null;
    let item = parsed;
    if (parsed.kind === 'block' && !parsed.footer) item = resumeBlock(lines, parsed, (lostNothing ??= lostNothingOf(lines, splices, overwritten))) ?? parsed;
    if (item.kind === 'block') taken = item.endLine;
    return item;
  };
}

/**
 * Whether a gap line (1-based) with numbers is known to hold no part of a block line: a progress
 * bar's own line (drawn over none of the output's text: overwroteOutput), or a line whose client text a bar was
 * drawn over and that was put back together at its rest (splices.ts).
 */
function lostNothingOf(lines: readonly string[], splices: readonly Splice[], overwritten?: ReadonlyMap<number, string>): (line: number) => boolean {
  const repaired = new Set(splices.map((s) => s.line));
  return (line) => {
    if (repaired.has(line)) return true;
    return PROGRESS_BAR.test(stripEmbedding(lines[line - 1] as string)) && !overwroteOutput(overwritten?.get(line - 1));
  };
}

/** The block read on across its gaps to its footer, or null when it does not go on (it stays as it was parsed). */
function resumeBlock(lines: readonly string[], block: ServingBlock, lostNothing: (line: number) => boolean): ServingBlock | null {
  if (block.footer) return null;
  const margin = indentOf(lines[block.line - 1] as string);
  const subItem = (line: string): boolean => indentOf(line) > margin;
  const labels = new BlockLabels(block.entries.filter((e) => !subItem(lines[e.line - 1] as string)));
  // a section the block's lines open after its last value (the gap right below `---- Turn 2 ----`)
  for (let i = block.entries.at(-1)?.line ?? block.line; i < block.endLine; i++) {
    const text = stripEmbedding(lines[i] as string);
    if ((SECTION_RULE.test(text) || BARE_LABEL.test(text)) && !labels.enter(text)) return null;
  }
  const gaps = new Set<number>();
  // 1-based: gap lines that may hold what is left of a block line, and whether the next block line may be its rest
  const suspects = new Set<number>();
  let restNext = false;
  let inGap = 0;
  // whether the line before is a gap line with text (a Markdown heading's text, if a footer comes next)
  let textBefore = false;
  const last = Math.min(lines.length, block.endLine + MAX_RESUME_LINES);
  // block.endLine is 1-based: the index of the line after the block's last
  for (let i = block.endLine; i < last; i++) {
    const text = stripEmbedding(lines[i] as string);
    if (BLOCK_HEADER.test(text)) return null;
    if (FOOTER.test(text)) return gaps.size > 0 && (!textBefore || sameWidth(lines, block, text)) ? relexed(lines, block, i, gaps, suspects) : null;
    textBefore = false;
    if (text !== '' && isLogLine(text)) continue;
    if (text !== '' && (SECTION_RULE.test(text) || BARE_LABEL.test(text))) {
      if (!labels.enter(text)) return null;
      inGap = 0;
      restNext = false;
      continue;
    }
    if (text !== '' && KV_LINE.test(text) && restNext) {
      // what follows what is left of a cut line may be its rest (`t concurrency: 32` of `Max
      // request concurrency: 32`): read as a line of its own, it could give a label a wrong value
      if (++inGap > MAX_GAP_LINES) return null;
      gaps.add(i);
      suspects.add(i + 1);
      restNext = false;
      continue;
    }
    if (text !== '' && KV_LINE.test(text)) {
      if (!subItem(lines[i] as string) && !labels.add(splitLabel(text).label)) return null;
      inGap = 0;
      continue;
    }
    if (++inGap > MAX_GAP_LINES) return null;
    textBefore = text !== '';
    gaps.add(i);
    if (HAS_DIGIT.test(text) && !lostNothing(i + 1)) {
      suspects.add(i + 1);
      restNext = true;
    }
  }
  return null;
}

/** A multi-turn block's section of one turn (`---- Turn 2 (100 samples) ----`): its number. */
const TURN_SECTION = /^-*\s*Turn (\d+)\b/i;

/**
 * The labels a block has given, by where a label may come again: nowhere above its first section
 * (the head), once in each `Turn N` section of a multi-turn block (turns in order), else once in
 * the block.
 */
class BlockLabels {
  readonly #head = new Set<string>();
  #scope = new Set<string>();
  #turn = 0;
  #sectioned = false;

  constructor(entries: readonly BlockEntry[]) {
    for (const e of entries) {
      const turn = e.section === null ? null : TURN_SECTION.exec(e.section);
      if (turn) this.#enterTurn(Number(turn[1]));
      if (e.section !== null) this.#sectioned = true;
      this.add(e.label);
    }
  }

  /** A section rule or bare label: false for a turn that does not come after the last. */
  enter(text: string): boolean {
    this.#sectioned = true;
    const turn = TURN_SECTION.exec(text);
    return turn ? this.#enterTurn(Number(turn[1])) : true;
  }

  /** False for a label given already where it may not come again. */
  add(label: string): boolean {
    const key = label.toLowerCase();
    if (this.#head.has(key) || this.#scope.has(key)) return false;
    (this.#sectioned ? this.#scope : this.#head).add(key);
    return true;
  }

  #enterTurn(n: number): boolean {
    if (n <= this.#turn) return false;
    this.#turn = n;
    this.#scope = new Set();
    return true;
  }
}

/** How far a line is indented past its wrapper: a sub-item's (SGLang's `  Device:` under each cache figure) more than its block's header. */
function indentOf(line: string): number {
  const own = withoutWrapper(line);
  return own.length - own.trimStart().length;
}

function sameWidth(lines: readonly string[], block: ServingBlock, footer: string): boolean {
  return stripEmbedding(lines[block.line - 1] as string).length === footer.length;
}

/** The block's lines, header to footer, lexed and parsed again with its gaps marked (GapLine). */
function relexed(lines: readonly string[], block: ServingBlock, footer: number, gaps: ReadonlySet<number>, suspects: ReadonlySet<number>): ServingBlock | null {
  const start = block.line - 1;
  const text = lines
    .slice(start, footer + 1)
    .map((line, k) => (gaps.has(start + k) ? GAP_MARK : stripEmbedding(line)))
    .join('\n');
  const { tokens } = resumeLexer().tokenize(text);
  for (const t of tokens) if (t.startLine !== undefined) t.startLine += start;
  const [resumed] = toItems(parseTokens(servingBlockParser(), tokens, (p) => p.document()));
  if (resumed?.kind !== 'block' || !resumed.footer) return null;
  return { ...resumed, gaps: resumed.gaps.filter((l) => !suspects.has(l)), suspectGaps: resumed.gaps.filter((l) => suspects.has(l)) };
}
