import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { signature } from '../../src/parse/signature.js';
import { sectionHeaders, tableKind } from './columns.js';
import { guidellmConsoleParser } from './parser.js';
import { ReportCollector } from './reports.js';
import { reportRuns } from './runs.js';
import { TableReader } from './table.js';
import { guidellmLexer } from './tokens.js';
import { BarReportReader } from './v03-reports.js';
import { barReportRuns } from './v03-runs.js';
import { type ConsoleItem, type Frame, toItems } from './visitor.js';
import { readingAcrossTableGaps } from '../_shared/table-gaps.js';

/** A table's title line (`ℹ` and the title GuideLLM gives it) right above its `|===|` rule. */
const TITLED = signature(
  ['Run Summary Info', 'Request Latency Statistics', 'Request Token Statistics', 'Server Throughput Statistics', 'Metrics Statistics'],
  /^[^\S\n]*(?:ℹ[^\S\n]*)?(?:Run Summary Info|Request (?:Latency|Token) Statistics|Server Throughput Statistics|(?:Text|Image|Video|Audio|Tool Call) Metrics Statistics)\b[^\n]*\n[^\S\n]*\|=+\|/m,
);
/** A table without its title: the `|===|` rule, then the `Benchmark` / `Strategy` header cells GuideLLM starts every table with. */
const UNTITLED = signature(['| Benchmark'], /^[^\S\n]*\|=+\|[^\n]*\n[^\S\n]*\|[^\S\n]*Benchmark[^\S\n]*\|[^\n]*\n[^\S\n]*\|[^\S\n]*Strategy[^\S\n]*\|/m);
/** GuideLLM 0.2 / 0.3: `Benchmarks Info:` or `Benchmarks Stats:` above a rule of `=` (a write-up may leave a blank line between). */
const TITLED_V03 = signature(['Benchmarks Info', 'Benchmarks Stats'], /^[^\S\n]*Benchmarks (?:Info|Stats):?[^\S\n]*\n(?:[^\S\n]*\n)?[^\S\n]*={8,}[^\S\n]*$/m);
/** A 0.2 / 0.3 table without its title: the header line of Benchmarks Stats or Benchmarks Info, with no bar at its start. */
const UNTITLED_V03 = signature(['Benchmark| '], /Benchmark\|[^\S\n]*(?:Per Second\|[^\S\n]*Concurrency|Start Time\|[^\S\n]*End Time)\|/);

/**
 * Where a piece may be cut (src/parse/pieces.ts): before a line that no table goes on with. A pipe
 * table's lines start with `|`; a 0.2 / 0.3 table's have a `|` anywhere or, wrapped, may be a
 * word alone (`25.0`, `=====`).
 */
const NO_TABLE_GOES_ON = (line: string): boolean => !line.includes('|') && !/^\s*\S+\s*$/.test(line);
/** A table's rows after a break of at most this many lines (a log line printed into it) continue it. */
const MAX_BREAK_LINES = 5;
/** Lines of a write-up around pasted output that label it or frame it: not noise. */
const WRITE_UP = /^\s*(?:#|```|~~~)/;

/** GuideLLM's console tables (`guidellm benchmark`, 0.2 → ): one run per benchmark row. */
export const grammar: Grammar = readingAcrossTableGaps({
  id: 'guidellm-console',
  title: 'GuideLLM console tables',
  readsLineText: true,
  detect({ head }) {
    if (TITLED.test(head)) return { score: 0.9, reason: 'GuideLLM table title above a |===| rule' };
    if (UNTITLED.test(head)) return { score: 0.7, reason: 'pipe table with Benchmark / Strategy header under a |===| rule' };
    if (TITLED_V03.test(head)) return { score: 0.9, reason: 'GuideLLM 0.2/0.3 Benchmarks Info / Stats title above a ==== rule' };
    if (UNTITLED_V03.test(head)) return { score: 0.7, reason: 'GuideLLM 0.2/0.3 Benchmark| Per Second| or Start Time| header line' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // in pieces (src/parse/pieces.ts) cut before a line no table goes on with: a frame ends there,
    // and a title is only ever the line right above a rule
    const items: ConsoleItem[] = [];
    const cutsBefore = (i: number): boolean => NO_TABLE_GOES_ON(source.lines[i] as string);
    for (const piece of lexedPieces(source.lines, cutsBefore, (text) => guidellmLexer().tokenize(text))) {
      for (const item of toItems(parseTokens(guidellmConsoleParser(), piece.tokens, (p) => p.document()))) items.push(item);
    }
    return toRuns(items, source, sink);
  },
});

type Event = { readonly kind: 'table'; readonly reader: TableReader } | { readonly kind: 'model'; readonly value: string; readonly line: number };

/** A report of either form, where it starts, and how its runs are read. */
interface AnyReport {
  readonly line: number;
  readonly runs: (label: string | null) => RunRecord[];
}

function toRuns(items: readonly ConsoleItem[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const { events, unrecognized, barReports } = readItems(items, source, sink);
  const collector = new ReportCollector();
  for (const e of events) {
    if (e.kind === 'model') collector.model(e.value, e.line);
    else addTable(e.reader, collector, unrecognized, source, sink);
  }
  // (no spread: a long log has more such lines than a call takes arguments)
  const first = unrecognized.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  if (unrecognized.length > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, unrecognized.length);
  // both forms in one file (a write-up comparing versions): their reports in document order
  const reports: AnyReport[] = [
    ...collector.reports.map((r) => ({ line: r.line, runs: (label: string | null) => reportRuns(r, label, source, sink) })),
    ...barReports.map((r) => ({ line: r.line, runs: (label: string | null) => barReportRuns(r, label, source, sink) })),
  ].sort((a, b) => a.line - b.line);
  const ctx = documentContext(source.lines);
  let floor = -1;
  return reports.flatMap((report) => {
    const label = labelAbove(ctx, source.lines, report.line - 1, floor);
    floor = report.line - 1;
    return report.runs(label);
  });
}

/**
 * The tables (frames read into tables, rows after a break joined to the table they continue) and
 * model lines of a document, in order, the 0.2 / 0.3 reports, and the lines that are neither
 * GuideLLM's nor a write-up's.
 */
function readItems(items: readonly ConsoleItem[], source: TextSource, sink: DiagnosticSink): { events: Event[]; unrecognized: number[]; barReports: BarReportReader['reports'] } {
  const events: Event[] = [];
  const unrecognized: number[] = [];
  const bars = new BarReportReader();
  let last: TableReader | null = null;
  // the indented details GuideLLM prints below a status line (or a 0.3 section title) are its own
  let inStatus = false;
  const passed: number[] = [];
  const otherLine = (text: string, line: number): void => {
    if (text === '') return;
    if (inStatus && /^\s/.test(source.lines[line - 1] ?? '')) {
      bars.detail(text, line);
      return;
    }
    inStatus = false;
    bars.interrupt();
    if (!WRITE_UP.test(text)) unrecognized.push(line);
  };
  for (const item of items) {
    if (item.kind === 'frame') {
      inStatus = false;
      bars.interrupt();
      const first = item.lines[0];
      if (continues(item, last)) {
        if (first) sink.report('parse/syntax', { file: source.path, line: first.line, column: 1 }, 'a table title or top rule (rows after a break continue the table above)', first.text.trim());
      } else {
        last = new TableReader(item.title, item.titleLine ?? first?.line ?? 1);
        events.push({ kind: 'table', reader: last });
      }
      for (const l of item.lines) last?.feed(l);
    } else if (item.kind === 'bars') {
      const [interleaved] = item.interleaved;
      if (interleaved !== undefined) sink.report('block/interleaved-line', { file: source.path, line: interleaved, column: 1 }, item.interleaved.length);
      const read = bars.frame(item, source.path, sink);
      // a frame that is no table is its lines, each any other line
      if (read) inStatus = false;
      for (const l of read ? read.rest : item.lines) otherLine(l.text.trim(), l.line);
    } else if (item.kind === 'model') {
      inStatus = true;
      bars.interrupt();
      const model = /backend validated with model (\S+)/.exec(item.text)?.[1];
      if (model) events.push({ kind: 'model', value: model, line: item.line });
    } else if (item.kind === 'status') {
      inStatus = true;
      bars.interrupt();
    } else if (item.kind === 'section') {
      inStatus = true;
      bars.section(item.text, item.line);
    } else if (item.kind === 'interleaved' && inStatus) {
      // a server's line tee'd among the details of a status or section: they go on past it
      passed.push(item.line);
    } else {
      otherLine(item.text, item.line);
    }
  }
  if (passed.length > 0) sink.report('block/interleaved-line', { file: source.path, line: passed[0] as number, column: 1 }, passed.length);
  return { events, unrecognized, barReports: bars.reports };
}

/** Whether a frame is the rest of the table above, broken by a few foreign lines: rows with no title nor top rule of their own. */
function continues(frame: Frame, last: TableReader | null): last is TableReader {
  const first = frame.lines[0];
  if (!last || frame.title !== null || !first || first.kind === 'heavy') return false;
  return last.table.ruled && last.open && first.line - last.lastLine - 1 <= MAX_BREAK_LINES;
}

/**
 * Adds a finished table to its report. A frame with no `|===|` rule (a Markdown table), or one
 * with nothing but rules, is no GuideLLM table; a table GuideLLM does not print is said to be
 * ignored.
 */
function addTable(reader: TableReader, collector: ReportCollector, unrecognized: number[], source: TextSource, sink: DiagnosticSink): void {
  const { table } = reader;
  const headers = table.sections.map(sectionHeaders);
  const kind = table.ruled ? tableKind(table.title, headers.flat()) : null;
  if (kind !== null) {
    collector.add({ table, kind, headers });
  } else if (table.ruled && table.sections.length > 0) {
    sink.report('table/ignored-block', { file: source.path, line: table.line, column: 1 }, table.title === null ? 'a table without a title' : `table ${JSON.stringify(table.title)}`);
  } else {
    if (table.title !== null) unrecognized.push(table.line);
    for (const line of table.lines) unrecognized.push(line);
  }
}
