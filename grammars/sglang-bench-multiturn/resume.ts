import type { MetricLineItem, SummaryBlock } from './blocks.js';
import { BY_LABEL } from './metrics.js';
import { cleanLine } from './text.js';
import { METRIC_LINE, ROUND_LINE, ROUNDS_TITLE, SUMMARY_TITLE } from './tokens.js';

/**
 * A summary ends at the first line that is not one of its own: a blank line, or another program's
 * written into it (`tee` of a server, a Python warning). Its lines past such a gap are read on,
 * as the serving blocks are (grammars/_shared/serving-block/resume.ts), when they are the summary's
 * own and bring it to its last line:
 *
 * - at most MAX_GAP_LINES gap lines in a row, within MAX_RESUME_LINES;
 * - value lines with labels the script prints and the summary does not have yet (a second run's
 *   summary that lost its title would repeat them), then its `Per-round metrics:` and rounds in
 *   order; no summary title on the way;
 * - and the values end whole (`Cache Hit Rate`, the 2024 layout's `Throughput`: endsWhole), or
 *   did already and only the rounds are read on.
 */
const MAX_GAP_LINES = 3;
const MAX_RESUME_LINES = 200;
const HAS_DIGIT = /\d/;

/** The summary read on across its gaps, or as it is. */
export function resumedSummary(lines: readonly string[], block: SummaryBlock): SummaryBlock {
  const wholeBefore = endsWhole(block.metrics);
  const metrics = [...block.metrics];
  const rounds = [...block.rounds];
  let roundsLine = block.roundsLine;
  let lastLine = block.lastLine;
  const gaps: number[] = [];
  const pending: number[] = [];
  const labels = new Set(metrics.map((m) => m.label));
  const take = (line: number): void => {
    gaps.push(...pending.splice(0));
    lastLine = line;
  };
  const end = Math.min(lines.length, block.lastLine + MAX_RESUME_LINES);
  // block.lastLine is 1-based: the index of the line after the summary's last
  for (let i = block.lastLine; i < end; i++) {
    const text = cleanLine(lines[i] as string);
    if (SUMMARY_TITLE.test(text)) break;
    const metric = roundsLine === null && !wholeBefore ? METRIC_LINE.exec(text) : null;
    if (metric && isSummaryLabel(metric[1] as string) && !labels.has(metric[1] as string)) {
      labels.add(metric[1] as string);
      metrics.push({ label: metric[1] as string, value: (metric[2] as string).trim(), line: i + 1 });
      take(i + 1);
      continue;
    }
    if (roundsLine === null && ROUNDS_TITLE.test(text) && endsWhole(metrics)) {
      roundsLine = i + 1;
      take(i + 1);
      continue;
    }
    const round = roundsLine === null ? null : ROUND_LINE.exec(text);
    if (round && Number(round[1]) === rounds.length) {
      rounds.push({ round: rounds.length, text: (round[2] as string).trim(), line: i + 1 });
      take(i + 1);
      continue;
    }
    if (pending.length === MAX_GAP_LINES) break;
    pending.push(i + 1);
  }
  if (gaps.length === 0 || !endsWhole(metrics)) return block;
  // (a progress bar's line never comes here: client-output.ts takes such lines out first, and says when one was drawn over text)
  const suspect = (line: number): boolean => HAS_DIGIT.test(lines[line - 1] as string);
  return { line: block.line, metrics, roundsLine, rounds, lastLine, gaps: gaps.filter((l) => !suspect(l)), suspectGaps: gaps.filter(suspect) };
}

/** A label the script prints in a summary (`Total requests` is read apart from the others). */
function isSummaryLabel(label: string): boolean {
  return label === 'Total requests' || BY_LABEL.has(label);
}

/** Do the summary's values end with its last line (`Cache Hit Rate`, or the 2024 layout's `Throughput`)? */
export function endsWhole(metrics: readonly MetricLineItem[]): boolean {
  const last = metrics.at(-1)?.label;
  if (last === 'Cache Hit Rate') return true;
  return last === 'Throughput' && !metrics.some((m) => m.label === 'Average Prompt Length' || m.label === 'Input token throughput');
}
