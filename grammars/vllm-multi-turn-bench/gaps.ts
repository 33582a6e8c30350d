import { MAX_GAP_LINES, type TableGaps } from '../_shared/table-gaps.js';
import { cleanLine } from './text.js';
import { INVOCATION_START, PARAM_LINE, SEPARATOR, SUMMARY_TITLE, SUMMARY_VALUE, TABLE_HEADER, TABLE_ROW } from './tokens.js';

const DIGIT = /\d/;

/** What a line is to the summary it is inside (its title aside). */
type SummaryLine = 'value' | 'separator' | 'header' | 'row' | 'start' | 'blank' | 'text';

function summaryLine(text: string): SummaryLine {
  if (text === '') return 'blank';
  if (SEPARATOR.test(text)) return 'separator';
  if (SUMMARY_VALUE.test(text)) return 'value';
  if (TABLE_HEADER.test(text)) return 'header';
  if (TABLE_ROW.test(text)) return 'row';
  // an invocation's first lines, or its `key=value` parameters: the summary above is over
  if (INVOCATION_START.test(text) || PARAM_LINE.test(text)) return 'start';
  return 'text';
}

/** Where a summary is: over its `key = value` lines, past the separator under them, in its table. */
type Phase = 'closed' | 'values' | 'separated' | 'table';

/** The phase after one of the summary's own lines; undefined when the line is not its own there. */
function nextPhase(phase: Phase, kind: SummaryLine): Phase | undefined {
  if (kind === 'header') return 'table';
  switch (phase) {
    case 'values':
      return kind === 'value' ? 'values' : kind === 'separator' ? 'separated' : undefined;
    case 'separated':
      // a second separator with no table between: a summary without its table, over
      return kind === 'separator' ? 'closed' : undefined;
    case 'table':
      return kind === 'row' ? 'table' : kind === 'separator' ? 'closed' : undefined;
    default:
      return undefined;
  }
}

/**
 * The lines of text written into a `Statistics summary` (another process's output where `tee` or a
 * shared terminal mixed two, a line no other rule knows): up to MAX_GAP_LINES lines between two of
 * its own, from its title to the separator closing its table. Its own lines are its `key = value`
 * lines and the separator under them, then the table's headers and rows, then the separator that
 * closes it; a run of more lines, an invocation's start or a new title ends it where it is (a
 * summary cut short). Blank lines are the parser's to read across; only lines of text are given.
 */
export function summaryGaps(lines: readonly string[]): TableGaps {
  const inside = new Set<number>();
  const numbered = new Set<number>();
  let phase: Phase = 'closed';
  let gap: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = cleanLine(lines[i] as string);
    if (SUMMARY_TITLE.test(text)) {
      phase = 'values';
      gap = [];
      continue;
    }
    if (phase === 'closed') continue;
    const kind = summaryLine(text);
    const next = nextPhase(phase, kind);
    if (next === undefined) {
      gap.push(i);
      if (kind === 'start' || gap.length > MAX_GAP_LINES) phase = 'closed';
      continue;
    }
    for (const g of gap) {
      const written = cleanLine(lines[g] as string);
      if (written === '') continue;
      inside.add(g);
      if (DIGIT.test(written)) numbered.add(g);
    }
    gap = [];
    phase = next;
  }
  return { lines: inside, numbered };
}
