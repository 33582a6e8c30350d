import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { remappedSink, remapRecord, withoutLines } from '../../src/core/remap-lines.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { insideRuns } from './inside-runs.js';
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
const MAX_GAP_LINES = 3;

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

/**
 * The blank lines written into a console table (another process's empty line, where `tee` or a
 * shared terminal mixed two outputs), given which lines are left out already (`skipped`: another
 * process's lines). A blank line is inside a table when the nearest kept lines around it, at most
 * MAX_GAP_LINES blank lines apart, are: a row or top border above, and below a row or a border
 * that is not a top one; or a border above (a top one, tabulate's between two rows, GuideLLM's
 * between two parts of a table) and a row below. A table grammar reads across such lines as across
 * the other process's lines instead of ending the table there and losing its rows below. A bottom
 * border ends a table, and so does a border followed by another (two grid tables, one under the other).
 */
export function blankLinesInTables(lines: readonly string[], skipped: (index: number) => boolean): Set<number> {
  const inside = new Set<number>();
  // what kind of table line the last kept line with text is, and whether its table has had a Markdown rule
  let above: TableLine | null = null;
  let ruled = false;
  let blanks: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (skipped(i)) continue;
    const text = stripEmbedding(lines[i] as string);
    if (text === '') {
      blanks.push(i);
      continue;
    }
    const below = tableLine(text);
    if (blanks.length > 0) {
      const across = blanks.length <= MAX_GAP_LINES && goesOn(above, below) && !(ruled && startsMarkdownTable(lines, i, skipped));
      if (across) for (const b of blanks) inside.add(b);
      else ruled = false;
    }
    blanks = [];
    above = below;
    // a table's rule under its header is its part's; a border begins another part (GuideLLM's)
    if (below === null || below === 'border' || below === 'open' || below === 'close') ruled = false;
    else if (MARKDOWN_RULE.test(text)) ruled = true;
  }
  return inside;
}

/**
 * Whether line `i` is a Markdown table's header: the next kept line with text is its rule. Under a table
 * that has had its own rule, a new table, as TGI's benchmark prints one under another with a
 * blank line between (a header of several lines, GuideLLM's, has its rule under the last).
 */
function startsMarkdownTable(lines: readonly string[], i: number, skipped: (index: number) => boolean): boolean {
  for (let j = i + 1; j < lines.length; j++) {
    const text = skipped(j) ? '' : stripEmbedding(lines[j] as string);
    if (text !== '') return MARKDOWN_RULE.test(text);
  }
  return false;
}

/** Whether a table goes on from a line of kind `above` to one of kind `below`. */
function goesOn(above: TableLine | null, below: TableLine | null): boolean {
  if (above === 'row' || above === 'open') return below === 'row' || below === 'border' || below === 'close';
  return above === 'border' && below === 'row';
}

/**
 * A console grammar that reads its tables across blank lines written into them
 * (blankLinesInTables; another process's lines, INTERLEAVED_LINE, passed over to find them): it is
 * given the source without them, its records and diagnostics are at their lines in the file, and
 * those among a run's lines are counted (`block/gap-line`).
 */
export function readingAcrossTableGaps(g: Grammar): Grammar {
  return {
    ...g,
    parse(source: TextSource, sink: DiagnosticSink) {
      const blanks = blankLinesInTables(source.lines, (i) => INTERLEAVED_LINE.test(source.lines[i] as string));
      if (blanks.size === 0) return g.parse(source, sink);
      const view = withoutLines(source, (_, i) => blanks.has(i));
      const records = g.parse(view.source, remappedSink(sink, view.lineOf)).map((r) => remapRecord(r, view.lineOf));
      const within = insideRuns(view.dropped, records);
      if (within.length > 0) sink.report('block/gap-line', { file: source.path, line: within[0] as number, column: 1 }, within.length);
      return records;
    },
  };
}
