import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { signature } from '../../src/parse/signature.js';
import type { TypedLine } from '../../src/parse/chevrotain.js';
import { caseRun } from './case-runs.js';
import { SentinelTally } from './columns.js';
import { jsonRuns, RESULT_LINE } from './json-runs.js';
import { oneBatchServerParser } from './parser.js';
import { readLens, type ReportLens, tableRuns } from './report-table.js';
import { withReportRows } from './report-rows.js';
import { servedBy } from './served-by.js';
import { pieceCuts, serverLexer } from './tokens.js';
import { type ReportTable, type ServerCase, serverDocument } from './visitor.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';

/** A case as b23a42fc and later print it: `batch size: N`, then `input_len: N`. */
const CASE = signature(['input_len: '], /^[^\S\n]*batch size: \d+[^\S\n]*\n[^\S\n]*input_len: \d+/m);
const TABLE = signature(['input throughput (tok/s)'], /^[^\S\n]*\|[^\S\n]*batch size[^\S\n]*\|[^\n]*\blatency \(s\)[^\n]*\binput throughput \(tok\/s\)/m);
/** A result line: `latency` (seconds) beside `batch_size`; every version writes `overall_throughput`. */
const JSON_LINE = signature(['overall_throughput'], /^[^\S\n]*\{[^\n]*"batch_size"\s*:[^\n]*"latency"\s*:[^\n]*"overall_throughput"\s*:/m);
/** Keys of the other SGLang JSON lines: `bench_one_batch` (in-process), `bench_serving`, `bench_offline_throughput`. */
const FOREIGN = /"(?:prefill_latency|total_throughput|successful_requests|backend)"\s*:/;

/** `python -m sglang.bench_one_batch_server` (now `sglang.benchmark.one_batch_server`): stdout and its JSONL results. */
export const grammar: Grammar = readingPastInterleavedLines({
  id: 'sglang-bench-one-batch-server',
  title: 'SGLang single-batch benchmark against a server',
  readsLineText: true,
  detect({ head }) {
    if (CASE.test(head)) return { score: 0.8, reason: 'batch size: / input_len: case lines' };
    if (TABLE.test(head)) return { score: 0.8, reason: '--show-report table (batch size, latency (s), input throughput)' };
    if (JSON_LINE.test(head) && !FOREIGN.test(head)) return { score: 0.8, reason: 'JSON lines with batch_size, latency, overall_throughput' };
    return NOT_MINE;
  },
  parse(source, sink) {
    const sentinels = new SentinelTally();
    const text = textRuns(source, sink, sentinels);
    const runs = [...text.runs, ...jsonRuns(source, sink, sentinels)].sort((a, b) => a.at.line - b.at.line);
    sentinels.report(source.path, sink);
    // (a file without runs is not this tool's output: its lines are not counted against it)
    if (runs.length > 0) reportUnrecognized(text.stray, source, sink);
    return runs;
  },
});

/** The runs of the printed cases and report tables, and the lines of no known kind around them. */
function textRuns(source: TextSource, sink: DiagnosticSink, sentinels: SentinelTally): { runs: RunRecord[]; stray: TypedLine[] } {
  const cases: ServerCase[] = [];
  const tables: ReportTable[] = [];
  const loose: TypedLine[] = [];
  // the JSON result lines are jsonRuns' (lexed as blank lines: a long JSONL costs the lexer nothing)
  const withoutJson = (line: string): string => (RESULT_LINE.test(line) ? '' : line);
  for (const piece of lexedPieces(source.lines, pieceCuts(source.lines), (text) => serverLexer().tokenize(text), withoutJson)) {
    const doc = serverDocument(parseTokens(oneBatchServerParser(), piece.tokens, (p) => p.document()));
    // (a loop, not push(...): a piece of a long JSONL holds a loose line per line, past what a call takes as arguments)
    for (const c of doc.cases) cases.push(c);
    for (const t of doc.tables) tables.push(t);
    for (const l of doc.loose) loose.push(l);
  }
  const stray = strayLines(cases, loose);
  if (cases.length === 0 && tables.length === 0) return { runs: [], stray };
  const served = servedBy(loose);
  const ctx = documentContext(source.lines);
  // a label is looked for above a block down to the end of the block before it
  const ends = [...cases.map((c) => c.end), ...tables.map((t) => t.end)].sort((a, b) => a - b);
  const labelOf = (line: number): string | null => labelAbove(ctx, source.lines, line - 1, floorBelow(ends, line) - 1);
  for (const c of cases.filter((c) => c.headlessWarmup)) sink.report('table/ignored-block', { file: source.path, line: c.head.line, column: 1 }, HEADLESS_WARMUP);
  const measured = cases.filter((c) => !c.warmup).map((c) => caseRun(c, { source, sink, sentinels, served: served(c.head.line), label: labelOf(c.head.line) }));
  const lensLines = loose.filter((l) => l.type === 'ReportLens');
  const rows = tables.map((t) => {
    const lens = lensAbove(lensLines, t.header.line);
    return tableRuns(t, { source, sink, sentinels, served: served(t.header.line), lens, label: labelOf(lens?.line ?? t.header.line) });
  });
  return { runs: withReportRows(measured, rows), stray };
}

const HEADLESS_WARMUP = 'warm-up case (above a closing `Warmup End` banner whose opening one is not in the file: a log kept from its middle)';

/** The last of the sorted block ends above `line` (0 when none): where a label search above a block stops. */
function floorBelow(ends: readonly number[], line: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ends[mid] as number) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? (ends[lo - 1] as number) : 0;
}

/** The `Input lens:` line printed right above a table (the table follows it on the next line or two). */
function lensAbove(lensLines: readonly TypedLine[], headerLine: number): ReportLens | null {
  const line = lensLines.findLast((l) => l.line < headerLine && headerLine - l.line <= 2);
  return line ? readLens(line) : null;
}

/** Kinds of loose lines that belong to no block: a case's lines outside any case, `|` lines outside the table. */
const STRAY = new Set(['OtherLine', 'CaseValue', 'TableRule', 'TableRow']);

/** Lines of no known kind (log lines written into a case too), less blank lines and the JSON lines jsonRuns reads. */
function strayLines(cases: readonly ServerCase[], loose: readonly TypedLine[]): TypedLine[] {
  const lines = [...cases.flatMap((c) => c.others), ...loose.filter((l) => STRAY.has(l.type))];
  return lines.filter((l) => l.text.trim() !== '' && !/^\s*\{/.test(l.text));
}

/** Lines of no known kind, in one `parse/unrecognized-lines` info at the first. */
function reportUnrecognized(stray: readonly TypedLine[], source: TextSource, sink: DiagnosticSink): void {
  if (stray.length === 0) return;
  const first = stray.reduce((min, l) => Math.min(min, l.line), Number.POSITIVE_INFINITY);
  sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, stray.length);
}
