import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { byOffset, childNodes, positionedTokens } from '../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { multiturnParser } from './parser.js';
import { resumedSummary } from './resume.js';
import { cleanLine } from './text.js';
import { METRIC_LINE, multiturnLexer, ROUND_LINE, SUMMARY_TITLE } from './tokens.js';

/** One `  Label: value` line of a summary. */
export interface MetricLineItem {
  readonly label: string;
  readonly value: string;
  readonly line: number;
}

/** One `  Round N: …` line (N counts from 0). */
export interface RoundLineItem {
  readonly round: number;
  readonly text: string;
  readonly line: number;
}

/** One `Performance metrics summary:` block as printed. */
export interface SummaryBlock {
  readonly line: number;
  readonly metrics: readonly MetricLineItem[];
  /** Line of `Per-round metrics:`; null when the run printed none (no `--enable-round-barrier`). */
  readonly roundsLine: number | null;
  readonly rounds: readonly RoundLineItem[];
  readonly lastLine: number;
  /** Blank or foreign lines it was read across (resume.ts), and of those the ones with numbers (a value may be missing). */
  readonly gaps: readonly number[];
  readonly suspectGaps: readonly number[];
}

/**
 * The summaries of a source in order, read a piece at a time (src/parse/pieces.ts), each piece
 * cut only before a summary's title, where the parse starts afresh; each read on across a blank
 * or foreign line written into it (resume.ts).
 */
export function* summaryBlocks(lines: readonly string[]): Generator<SummaryBlock> {
  const cutsBefore = (i: number): boolean => SUMMARY_TITLE.test(cleanLine(lines[i] as string));
  for (const piece of lexedPieces(lines, cutsBefore, (text) => multiturnLexer().tokenize(text), cleanLine)) {
    for (const block of parseTokens(multiturnParser(), piece.tokens, (p) => blocksOf(p.document()))) yield resumedSummary(lines, block);
  }
}

function blocksOf(document: CstNode): SummaryBlock[] {
  return byOffset(childNodes(document, 'summary')).flatMap((node) => {
    const block = summaryOf(node);
    return block ? [block] : [];
  });
}


function summaryOf(node: CstNode): SummaryBlock | null {
  const tokens = positionedTokens(node);
  const title = tokens[0];
  if (!title || title.tokenType.name !== 'SummaryTitle') return null;
  const metrics: MetricLineItem[] = [];
  const rounds: RoundLineItem[] = [];
  let roundsLine: number | null = null;
  let lastLine = title.startLine ?? 1;
  for (const t of tokens.slice(1)) {
    const line = t.startLine ?? 1;
    lastLine = Math.max(lastLine, line);
    if (t.tokenType.name === 'MetricLine') {
      const m = METRIC_LINE.exec(t.image);
      if (m) metrics.push({ label: m[1] as string, value: (m[2] as string).trim(), line });
    } else if (t.tokenType.name === 'RoundsTitle') {
      roundsLine ??= line;
    } else if (t.tokenType.name === 'RoundLine') {
      const m = ROUND_LINE.exec(t.image);
      if (m) rounds.push({ round: Number(m[1]), text: (m[2] as string).trim(), line });
    }
  }
  return { line: title.startLine ?? 1, metrics, roundsLine, rounds, lastLine, gaps: [], suspectGaps: [] };
}
