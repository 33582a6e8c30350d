import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import type { SummaryBlock } from './blocks.js';
import { BY_LABEL, LAST_OF_NEW_LAYOUT, LAST_OF_OLD_LAYOUT, snakeLabel } from './metrics.js';
import { endsWhole } from './resume.js';
import { addRounds, printedRound, type RoundValues } from './rounds.js';
import { printedNumber } from './text.js';

export const CLIENT = 'sglang-bench-multiturn';

/** `1280 at 16 requests per second` (every layout): the requests that finished, and the run's `--request-rate`. */
const TOTAL_REQUESTS = /^(\d+)(?: at (\S+) requests per second)?$/;

/** One run from a printed `Performance metrics summary:` block. */
export function summaryRun(block: SummaryBlock, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const at = pos(source, block.line);
  if (block.metrics.length === 0) {
    sink.report('block/empty', at);
    return null;
  }
  const b = new FieldMapBuilder();
  const unknown: string[] = [];
  // a summary cut at the file's end: its last line may end inside its number (`4.3` of `4.38`)
  const cutLine = block.lastLine === source.lines.length && block.rounds.length === 0 && !endsWhole(block.metrics) ? block.lastLine : null;
  for (const { label, value, line } of block.metrics) {
    if (line === cutLine) continue;
    if (label === 'Total requests') {
      addTotalRequests(b, value, line, source, sink);
      continue;
    }
    // `2.78 requests per second`, `812.50 tokens`: the number is the first word
    const word = value.split(' ', 1)[0] as string;
    const number = printedNumber(word);
    if (number === null) {
      sink.report('block/bad-value', pos(source, line), label, value);
      continue;
    }
    const metric = BY_LABEL.get(label);
    if (!metric) unknown.push(label);
    const column = metric?.column ?? snakeLabel(label);
    if (b.has(column)) {
      sink.report('block/duplicate-label', pos(source, line), label);
      continue;
    }
    // nan (an empty run's statistics): nothing measured
    if (number !== undefined) b.set(column, scaleExact(number, metric?.scale ?? 1), line);
  }
  let complete = checkComplete(block, b, at, sink, cutLine === null ? '' : `; its last line, cut where the file ends, left out`);
  if (block.roundsLine !== null) {
    const rounds = roundsOf(block, source, sink);
    // the rounds share out the run's requests: fewer is a list cut short (its last rounds lost)
    const inRounds = rounds.reduce((n, r) => n + (r.get('completed') ?? 0), 0);
    if (complete && typeof b.fields.completed === 'number' && inRounds < b.fields.completed) {
      sink.report('block/truncated', at, `its per-round lines (rounds of ${inRounds} of its ${b.fields.completed} requests)`);
      complete = false;
    }
    addRounds(b, rounds, block.roundsLine, pos(source, block.roundsLine), sink);
  }
  const [firstGap] = block.gaps;
  if (firstGap !== undefined) sink.report('block/gap-line', pos(source, firstGap), block.gaps.length);
  const [firstSuspect] = block.suspectGaps;
  if (firstSuspect !== undefined) sink.report('block/numbers-in-gap', pos(source, firstSuspect), block.suspectGaps.length);
  b.set('multi_turn', true, block.line);
  b.set('client', CLIENT, block.line);
  reportUnknownMetrics(unknown, sink, source.path, block.line);
  return { kind: 'run', at, label: null, complete, fields: b.fields, lines: b.lines, lastLine: block.lastLine };
}

function addTotalRequests(b: FieldMapBuilder, value: string, line: number, source: TextSource, sink: DiagnosticSink): void {
  const m = TOTAL_REQUESTS.exec(value);
  const rate = m?.[2] === undefined ? undefined : printedNumber(m[2]);
  if (!m || rate === null) {
    sink.report('block/bad-value', pos(source, line), 'Total requests', value);
    return;
  }
  b.set('completed', Number(m[1]), line);
  if (rate !== undefined) b.set('request_rate', rate, line);
}

/**
 * A summary has no footer: its last line says it is whole. That is `Cache Hit Rate` since the
 * script printed token throughputs (2025), `Throughput` before; a `Per-round metrics:` title needs
 * at least one round after it.
 */
function checkComplete(block: SummaryBlock, b: FieldMapBuilder, at: SourcePos, sink: DiagnosticSink, cut: string): boolean {
  const newLayout = b.has('input_throughput') || b.has('mean_input_len') || block.roundsLine !== null;
  if (newLayout && !b.has(LAST_OF_NEW_LAYOUT)) {
    sink.report('block/truncated', at, `its Cache Hit Rate line${cut}`);
    return false;
  }
  if (!b.has(LAST_OF_OLD_LAYOUT)) {
    sink.report('block/truncated', at, `its Throughput line${cut}`);
    return false;
  }
  if (block.roundsLine !== null && block.rounds.length === 0) {
    sink.report('block/truncated', at, 'its per-round lines');
    return false;
  }
  return true;
}


/** The printed rounds in order (Round 0 is turn 1); a line that is not a round's values is said. */
function roundsOf(block: SummaryBlock, source: TextSource, sink: DiagnosticSink): RoundValues[] {
  const rounds: RoundValues[] = [];
  for (const r of block.rounds) {
    const values = printedRound(r.text);
    if (values === null || r.round !== rounds.length) {
      sink.report('block/bad-value', pos(source, r.line), `Round ${r.round}`, r.text);
      continue;
    }
    rounds.push(values);
  }
  return rounds;
}

function pos(source: TextSource, line: number): SourcePos {
  return { file: source.path, line, column: 1 };
}
