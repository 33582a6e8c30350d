import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';
import { MAX_GAP_LINES, type TableGaps } from '../_shared/table-gaps.js';

/** A table's top border. */
const TOP_BORDER = /^\s*┏/;
/** Any other line of a table or panel: a title is not parted from its table by one. */
const TABLE_LINE = /^\s*[┃│└┡╰╭┗]/;
/** Lines looked at below a title for its table: its gap, and blank or other processes' lines around it. */
const LOOK_LINES = MAX_GAP_LINES + 4;

/**
 * The lines of text written between the title of a table a run is read from (`isRunTitle`) and the
 * table's top border (another process's output where `tee` or a shared terminal mixed two): up to
 * MAX_GAP_LINES, none another such title. The lexer takes a line right above a top border for its
 * title, so one written there took the title's place: the table was left out as another one, and
 * its title said to have no table. Blank lines and other processes' lines (the lexer's to pass)
 * are not given; no value can be among these lines, so none is `numbered`.
 */
export function titleGaps(lines: readonly string[], isRunTitle: (text: string) => boolean): TableGaps {
  const inside = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!isRunTitle(lines[i] as string)) continue;
    const gap: number[] = [];
    for (let j = i + 1; j < lines.length && j <= i + LOOK_LINES; j++) {
      const text = lines[j] as string;
      if (TOP_BORDER.test(text)) {
        for (const g of gap) inside.add(g);
        break;
      }
      if (TABLE_LINE.test(text) || isRunTitle(text)) break;
      if (text.trim() === '' || INTERLEAVED_LINE.test(text)) continue;
      gap.push(j);
      if (gap.length > MAX_GAP_LINES) break;
    }
  }
  return { lines: inside, numbered: new Set() };
}
