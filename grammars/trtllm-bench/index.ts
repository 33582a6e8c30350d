import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { addReportFields } from './fields.js';
import { trtllmBenchParser } from './parser.js';
import { isBodyLine, RULE, TITLE_LINE, trtllmBenchLexer } from './tokens.js';
import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import type { CstNode } from '../../src/parse/chevrotain-runtime.js';
import { type Report, toReports } from './visitor.js';

/** `[08/07/2025-02:28:51] [TRT-LLM] [I] ` (optionally `[RANK 0] `): the logger prefix of the first line. */
const LOGGER_PREFIX = /^\[\d\d\/\d\d\/\d{4}-\d\d:\d\d:\d\d\] \[TRT-LLM\](?: \[RANK \d+\])? \[[A-Z]\] ?/;
const TITLES = signature(['PERFORMANCE OVERVIEW', 'ENGINE DETAILS', 'PYTORCH BACKEND', 'PyTorch backend', 'REQUEST DETAILS', 'WORLD + RUNTIME INFORMATION', 'STATISTICS'], /^\W{0,8}= (?:PERFORMANCE OVERVIEW|ENGINE DETAILS|PYTORCH BACKEND|PyTorch backend|REQUEST DETAILS|WORLD \+ RUNTIME INFORMATION|STATISTICS|DECODING STATISTICS)\b/m);
const TRT_HINT = /\[TRT-LLM\]|trtllm-bench|\[TensorRT-LLM\]/;

/** `trtllm-bench throughput|latency` reports (TensorRT-LLM 0.12 → 1.x), in logs and write-ups. */
export const grammar: Grammar = {
  id: 'trtllm-bench',
  title: 'TensorRT-LLM trtllm-bench report',
  readsLineText: true,
  detect({ head }) {
    if (TITLES.test(head)) return { score: 0.85, reason: 'trtllm-bench report section title' };
    if (TRT_HINT.test(head)) return { score: 0.2, reason: 'TensorRT-LLM log (a report may follow)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseReports(source, sink);
  },
};

/** Peels embedding and the logger prefix (kept only when something else follows it). */
export function reportLine(raw: string): string {
  const line = stripEmbedding(raw);
  const m = LOGGER_PREFIX.exec(line);
  if (!m) return line;
  const rest = line.slice(m[0].length).trim();
  return rest === '' || rest.startsWith('=') ? rest : line;
}

/** A `= TITLE` line anywhere in the file: without one there is no report to lex. */
const ANY_TITLE = /^[\s>#]*(?:\[[^\]]*\] )*=[ \t]+[A-Za-z]/;

function parseReports(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  if (!source.lines.some((l) => ANY_TITLE.test(l))) return [];
  const foreign = foreignInReports(source.lines);
  const blank = (n: number): boolean => foreign.interleaved.has(n) || foreign.gaps.has(n);
  const reports = toReports(documents(foreign.interleaved.size + foreign.gaps.size === 0 ? source.lines : source.lines.map((l, i) => (blank(i + 1) ? '' : l))));
  reportOrphanTitles(source, reports, sink);
  const ctx = documentContext(source.lines);
  let floor = -1;
  const runs: RunRecord[] = [];
  // (only a file cut inside a line can end in a cut value)
  const lastLine = source.unterminated === true ? lastTextLine(source.lines) : Number.POSITIVE_INFINITY;
  for (const report of reports) {
    const first = report.sections[0];
    if (!first || isDatasetSummary(report)) continue;
    // a report that runs to the end of a file cut inside a line, without its closing rule, may end in that cut line
    const cut = !report.closed && report.endLine >= lastLine;
    const within = (n: number): boolean => n > first.line && n < report.endLine;
    runs.push(toRun(report, first.line, floor, source, ctx, sink, cut, [...foreign.interleaved].filter(within)));
    reportGaps([...foreign.gaps].filter(within).sort((a, b) => a - b), source, sink);
    floor = report.endLine - 1;
  }
  return runs;
}

/** A section title as trtllm-bench prints one (`= PYTORCH BACKEND`, `= PyTorch backend`). */
const SECTION_TITLE = /^=[ \t]+(?:[A-Z][A-Z0-9 +()/_-]+|PyTorch backend)[ \t]*$/;

/**
 * A section's `= TITLE` line no header holds (a line written between it and its rule took the
 * rule's place): the section under it is lost, which a warning says.
 */
function reportOrphanTitles(source: TextSource, reports: readonly Report[], sink: DiagnosticSink): void {
  const held = new Set(reports.flatMap((r) => r.sections.map((s) => s.titleLine)));
  source.lines.forEach((raw, i) => {
    // (most lines of a full run log hold no `=`: not peeled)
    if (!raw.includes('=')) return;
    const line = reportLine(raw);
    if (SECTION_TITLE.test(line) && !held.has(i + 1)) sink.report('parse/syntax', { file: source.path, line: i + 1, column: 1 }, 'a section rule above this title', line.trim());
  });
}

/**
 * `trtllm-bench throughput|latency` logs the dataset's table (`= DATASET DETAILS`) on its own before
 * the benchmark runs (throughput.py / low_latency.py, text datasets), and again at the end of the
 * report: alone, it is no run (and its headings stay above the report for its label).
 */
function isDatasetSummary(report: Report): boolean {
  return report.sections.every((s) => s.title.toLowerCase() === 'dataset details');
}

/**
 * The CSTs of the source's pieces (src/parse/pieces.ts), cut before a section header: its rule,
 * when the line after it is a title and the line before it is not (the rule would close that
 * header). The parse of the whole starts a report there too; toReports carries on across pieces.
 */
function* documents(lines: readonly string[]): Generator<CstNode> {
  const at = (i: number): string => (i >= 0 && i < lines.length ? reportLine(lines[i] as string) : '');
  const cutsBefore = (i: number): boolean => RULE.test(at(i)) && TITLE_LINE.test(at(i + 1)) && !TITLE_LINE.test(at(i - 1));
  for (const piece of lexedPieces(lines, cutsBefore, (text) => trtllmBenchLexer().tokenize(text), reportLine)) {
    yield parseTokens(trtllmBenchParser(), piece.tokens, (p) => p.document());
  }
}

/** The line number of the last line with text (0 when none). */
function lastTextLine(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if ((lines[i] as string).trim() !== '') return i + 1;
  return 0;
}

/** Is this line (its embedding and logger prefix peeled) one a report prints: a rule, a title or a line of a section? */
function isReportLine(line: string): boolean {
  return RULE.test(line) || TITLE_LINE.test(line) || isBodyLine(line);
}

const FENCE = /^\s{0,3}(?:```|~~~)/;

/** Lines of text in a row (neither a report's nor another process's) a report is read across, at most. */
const MAX_GAP_LINES = 3;
const HAS_DIGIT = /\d/;

/** Lines (numbered from 1) inside reports that are not the reports' own, read as blank. */
interface ForeignLines {
  /** Another process's (INTERLEAVED_LINE: a server's log line when `tee` or a terminal mixed the two). */
  readonly interleaved: ReadonlySet<number>;
  /** Text of no kind (a Python warning's message, another program's output). */
  readonly gaps: ReadonlySet<number>;
}

/**
 * The lines another process wrote inside a report, and lines of text there (up to three in a
 * row): between two of the report's lines, blank lines aside, the first not its closing rule. A
 * rule after a section's lines closes the report or opens the next section's header: lines after
 * it are inside when a section's title comes next. They are read as blank: such a line ends a
 * report, and one tee'd into a section's header, between its title and its lines, or between two
 * of its lines, lost the rest. So is another process's line that looks
 * like a report's, wherever it is (under a closing rule, a report took a progress bar for a line of
 * its last section).
 */
function foreignInReports(lines: readonly string[]): ForeignLines {
  const interleaved = new Set<number>();
  const gaps = new Set<number>();
  // lines passed since the last line with text that is neither: whether each is text, by its number
  const pending = new Map<number, boolean>();
  let textInPending = 0;
  // the last two lines with text that are neither, the latest first; whether the latest is a report's
  let previous = '';
  let beforePrevious = '';
  let previousIsReport = false;
  lines.forEach((raw, i) => {
    // a Markdown fence opened or closed: what a write-up pasted ends, or starts, there (the report
    // a guide trimmed to its overview does not go on into the next section's command and YAML)
    if (FENCE.test(raw)) {
      pending.clear();
      textInPending = 0;
      previousIsReport = false;
      previous = '';
      beforePrevious = '';
      return;
    }
    const line = reportLine(raw);
    if (line.trim() === '') return;
    if (INTERLEAVED_LINE.test(line)) {
      // one a report would read as its own (a progress bar's `Processed prompts:  45%|…`), wherever it is
      if (isReportLine(line)) interleaved.add(i + 1);
      pending.set(i + 1, false);
      return;
    }
    // (a rule after a title closes the section's header; one after a section's lines, the report,
    // unless the next section's title follows)
    const ruleAfterLines = previousIsReport && RULE.test(previous) && !TITLE_LINE.test(beforePrevious);
    const open = previousIsReport && !ruleAfterLines;
    const report = isReportLine(line);
    if (!report && (open || ruleAfterLines) && textInPending < MAX_GAP_LINES) {
      pending.set(i + 1, true);
      textInPending++;
      return;
    }
    if (pending.size > 0) {
      if (report && (open || (ruleAfterLines && TITLE_LINE.test(line)))) for (const [n, text] of pending) (text ? gaps : interleaved).add(n);
      pending.clear();
      textInPending = 0;
    }
    beforePrevious = previous;
    previous = line;
    previousIsReport = report;
  });
  return { interleaved, gaps };
}

/** Says the gap lines among a report's lines: an info, and a warning for those with digits (a value may be missing). */
function reportGaps(gaps: readonly number[], source: TextSource, sink: DiagnosticSink): void {
  const first = gaps[0];
  if (first === undefined) return;
  sink.report('block/gap-line', { file: source.path, line: first, column: 1 }, gaps.length);
  const numbered = gaps.filter((n) => HAS_DIGIT.test(source.lines[n - 1] ?? ''));
  if (numbered.length > 0) sink.report('block/numbers-in-gap', { file: source.path, line: numbered[0] as number, column: 1 }, numbered.length);
}

function toRun(report: Report, line: number, floor: number, source: TextSource, ctx: ReturnType<typeof documentContext>, sink: DiagnosticSink, cut: boolean, passed: readonly number[]): RunRecord {
  const builder = new FieldMapBuilder();
  builder.set('engine', 'trtllm', line);
  builder.set('client', 'trtllm-bench', line);
  addReportFields(report, builder, sink, source.path);
  settleDataset(builder);
  const missing = missingPart(report, builder) ?? (cut ? 'the closing rule: the file ends inside the report' : null);
  if (missing !== null) sink.report('block/truncated', { file: source.path, line: report.endLine, column: 1 }, missing);
  const interleaved = [...report.sections.flatMap((s) => s.interleaved), ...passed].sort((a, b) => a - b);
  if (interleaved.length > 0) sink.report('block/interleaved-line', { file: source.path, line: interleaved[0] as number, column: 1 }, interleaved.length);
  return {
    kind: 'run',
    at: { file: source.path, line, column: 1 },
    label: labelAbove(ctx, source.lines, line - 1, floor),
    complete: missing === null,
    fields: builder.fields,
    lines: builder.lines,
  };
}

/**
 * What a cut report lacks: its performance section, or (1.x) the request latency breakdown. The
 * 0.15–0.16 latency report (GENERAL OVERVIEW) has no performance section: its results are its
 * THROUGHPUT and LATENCY OVERVIEW and GENERATION LATENCY BREAKDOWN. The suite's report (METADATA)
 * prints no request throughput: its result is STATISTICS' output throughput.
 */
function missingPart(report: Report, builder: FieldMapBuilder): string | null {
  const titles = report.sections.map((s) => s.title.toLowerCase());
  if (titles.includes('general overview')) {
    for (const t of ['throughput overview', 'latency overview']) if (!titles.includes(t)) return `no ${t.toUpperCase()} section`;
    if (!builder.has('request_throughput')) return 'no request throughput';
    return builder.has('max_generation_latency_ms') ? null : 'no generation latency breakdown';
  }
  if (!titles.some((t) => t === 'performance overview' || t === 'statistics')) return 'no PERFORMANCE OVERVIEW section';
  if (titles.includes('metadata')) return builder.has('output_throughput') ? null : 'no output throughput';
  if (!builder.has('request_throughput')) return 'no request throughput';
  if (titles.includes('request details') && !builder.has('max_e2el_ms')) return 'no request latency breakdown';
  return null;
}
