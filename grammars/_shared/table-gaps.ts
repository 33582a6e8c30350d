import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { withoutLines } from '../../src/core/remap-lines.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { parsedWithout } from './inside-runs.js';
import { INTERLEAVED_LINE } from './interleaved-line.js';

/** A box-drawing table's top border (rich, tabulate's fancy grid). */
const OPENING = /^[┌┏╭]/;
/** A box-drawing table's bottom border. */
const CLOSING = /^[└┗╰]/;
/** A border that may be a table's top or its bottom: `+----+`, `|====|`, GuideLLM 0.3's `=====`. */
const BORDER = /^(?:\+[-=+]*|[|=][=|]*)$/;
/** A row or inner rule of a box-drawing table. */
const BOX_ROW = /^[│┃├┡┣┠╞┬┼┤]/;
/** A Markdown table's rule under its header: `|---|:--:|`. */
const MARKDOWN_RULE = /^\|[-:| ]*-{3,}[-:| ]*$/;
/** More blank lines in a row than this are a break between two tables, never written into one. */
export const MAX_GAP_LINES = 3;

type TableLine = 'open' | 'close' | 'border' | 'row';

function tableLine(text: string): TableLine | null {
  if (OPENING.test(text)) return 'open';
  if (CLOSING.test(text)) return 'close';
  if (text.length >= 10 && BORDER.test(text)) return 'border';
  if (BOX_ROW.test(text)) return 'row';
  // a pipe table's row or inner rule (`| a | b |`, GuideLLM 0.3's `  synchronous|   14:02:10|`)
  const first = text.indexOf('|');
  return first >= 0 && text.indexOf('|', first + 1) > first ? 'row' : null;
}

/** A box-drawing table's line (rich's): every line of such a table starts with its frame. */
const BOXED = /^[│┃┏┡┣┠├┌┬┼┤╞╭└┗╰]/;
/** A grid table's border (tabulate's `grid`, EvalScope's): `+-----+----+`, `+=====+====+` under its header. */
const GRID_BORDER = /^\+[-=]{3,}[-=+]*$/;
const DIGIT = /\d/;

/** The lines written into the tables of a text (tableGaps), and those of them with numbers: 0-based indexes. */
export interface TableGaps {
  readonly lines: ReadonlySet<number>;
  /** Lines of text with a digit (not blank): what is left of a line may be among them. */
  readonly numbered: ReadonlySet<number>;
}

/**
 * The lines written into a console table (another process's empty line, or a line of its output
 * no other rule knows, such as a Python warning's `  warnings.warn(`, where `tee` or a shared
 * terminal mixed two outputs), given which lines are left out already (`skipped`: another
 * process's lines). A run of up to MAX_GAP_LINES such lines is inside a table when the nearest
 * kept lines around it go on with each other: a row or top border above, and below a row or a
 * border that is not a top one; or a border above (a top one, tabulate's between two rows,
 * GuideLLM's between two parts of a table) and a row below. Lines of text count only inside a
 * framed table: between two lines of a box-drawing one (rich's, whose every line starts with its
 * frame), or of a grid table (tabulate's, EvalScope's: one that has had a `+---+` border above the
 * text, or has one right below it); a pipe table's text may be a write-up's, between its table and
 * the author's own. Blank lines count between any two.
 * A table grammar reads across them instead of ending the table there and losing its rows below.
 * A bottom border ends a table, and so does a border followed by another (two grid tables, one
 * under the other), or a Markdown table's header under a table that has had its rule or under a
 * border (the author's table under a console's).
 */
export function tableGaps(lines: readonly string[], skipped: (index: number) => boolean): TableGaps {
  const inside = new Set<number>();
  const numbered = new Set<number>();
  // what kind of table line the last kept table line is, its text, and whether its table has had a Markdown rule
  let above: TableLine | null = null;
  let aboveText = '';
  let ruled = false;
  // whether the table above has had a grid table's border: its lines of text are read across
  let grid = false;
  let gap: number[] = [];
  let texts = false;
  for (let i = 0; i < lines.length; i++) {
    if (skipped(i)) continue;
    const text = stripEmbedding(lines[i] as string);
    const kind = text === '' ? null : tableLine(text);
    if (kind === null && above !== null && gap.length < MAX_GAP_LINES + 1) {
      // blank, or a line of text: inside the table if one of its lines comes next
      gap.push(i);
      if (text !== '') texts = true;
      continue;
    }
    if (gap.length > 0 && kind !== null) {
      const across =
        gap.length <= MAX_GAP_LINES && goesOn(above, kind) && (!texts || grid || framed(aboveText, text)) && !((ruled || above === 'border') && startsMarkdownTable(lines, i, skipped));
      if (across) {
        for (const g of gap) {
          inside.add(g);
          if (DIGIT.test(lines[g] as string)) numbered.add(g);
        }
      } else {
        ruled = false;
        grid = false;
      }
    }
    gap = [];
    texts = false;
    above = kind;
    aboveText = text;
    // a table's rule under its header is its part's; a border begins another part (GuideLLM's)
    if (kind === null || kind === 'border' || kind === 'open' || kind === 'close') ruled = false;
    else if (MARKDOWN_RULE.test(text)) ruled = true;
    if (kind === null) grid = false;
    else if (GRID_BORDER.test(text)) grid = true;
  }
  return { lines: inside, numbered };
}

/**
 * Whether line `i` is a Markdown table's header: the next table line is its rule (at most
 * MAX_GAP_LINES lines written into the table between). Under a table
 * that has had its own rule, a new table, as TGI's benchmark prints one under another with a
 * blank line between (a header of several lines, GuideLLM's, has its rule under the last).
 */
function startsMarkdownTable(lines: readonly string[], i: number, skipped: (index: number) => boolean): boolean {
  for (let j = i + 1, passed = 0; j < lines.length && passed <= MAX_GAP_LINES; j++) {
    const text = skipped(j) ? '' : stripEmbedding(lines[j] as string);
    if (text !== '' && tableLine(text) !== null) return MARKDOWN_RULE.test(text);
    passed++;
  }
  return false;
}

/**
 * Whether lines of text between two table lines are inside a framed table: both lines of a
 * box-drawing one, or the one below a grid table's border (the table above may have had one too:
 * tableGaps). A Markdown table, which a write-up's text may follow, has neither.
 */
function framed(above: string, below: string): boolean {
  return (BOXED.test(above) && BOXED.test(below)) || GRID_BORDER.test(below);
}

/** Whether a table goes on from a line of kind `above` to one of kind `below`. */
function goesOn(above: TableLine | null, below: TableLine | null): boolean {
  if (above === 'row' || above === 'open') return below === 'row' || below === 'border' || below === 'close';
  return above === 'border' && below === 'row';
}

/**
 * A console grammar that reads its tables across lines written into them (tableGaps; the lines
 * `skipped` picks, by default another process's, INTERLEAVED_LINE, passed over to find them).
 */
export function readingAcrossTableGaps(g: Grammar, skipped: (text: string) => boolean = (text) => INTERLEAVED_LINE.test(text)): Grammar {
  return readingAcrossGaps(g, (lines) => tableGaps(lines, (i) => skipped(lines[i] as string)));
}

/**
 * A grammar that reads its blocks across the lines `gapsOf` finds written into them: it is given
 * the source without them, its records and diagnostics are at their lines in the file, and those
 * among a run's lines are counted (`block/gap-line`), a warning for those with numbers
 * (`block/numbers-in-gap`).
 */
export function readingAcrossGaps(g: Grammar, gapsOf: (lines: readonly string[]) => TableGaps): Grammar {
  return {
    ...g,
    parse(source: TextSource, sink: DiagnosticSink) {
      const gaps = gapsOf(source.lines);
      if (gaps.lines.size === 0) return g.parse(source, sink);
      const { records, within } = parsedWithout(g, withoutLines(source, (_, i) => gaps.lines.has(i)), sink);
      const plain = within.filter((n) => !gaps.numbered.has(n - 1));
      const numbered = within.filter((n) => gaps.numbered.has(n - 1));
      if (plain.length > 0) sink.report('block/gap-line', { file: source.path, line: plain[0] as number, column: 1 }, plain.length);
      if (numbered.length > 0) sink.report('block/numbers-in-gap', { file: source.path, line: numbered[0] as number, column: 1 }, numbered.length);
      return records;
    },
  };
}
