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
import { type ConsoleItem, type Frame, toItems } from './visitor.js';

/** A table's title line (`ℹ` and the title GuideLLM gives it) right above its `|===|` rule. */
const TITLED = signature(
  ['Run Summary Info', 'Request Latency Statistics', 'Request Token Statistics', 'Server Throughput Statistics', 'Metrics Statistics'],
  /^[^\S\n]*(?:ℹ[^\S\n]*)?(?:Run Summary Info|Request (?:Latency|Token) Statistics|Server Throughput Statistics|(?:Text|Image|Video|Audio) Metrics Statistics)\b[^\n]*\n[^\S\n]*\|=+\|/m,
);
/** A table without its title: the `|===|` rule, then the `Benchmark` / `Strategy` header cells GuideLLM starts every table with. */
const UNTITLED = signature(['| Benchmark'], /^[^\S\n]*\|=+\|[^\n]*\n[^\S\n]*\|[^\S\n]*Benchmark[^\S\n]*\|[^\n]*\n[^\S\n]*\|[^\S\n]*Strategy[^\S\n]*\|/m);

const TABLE_LINE = /^\s*\|/;
/** A table's rows after a break of at most this many lines (a log line printed into it) continue it. */
const MAX_BREAK_LINES = 5;
/** Lines of a write-up around pasted output that label it or frame it: not noise. */
const WRITE_UP = /^\s*(?:#|```|~~~)/;

/** GuideLLM's console tables (`guidellm benchmark`, 2025 →): one run per benchmark row. */
export const grammar: Grammar = {
  id: 'guidellm-console',
  title: 'GuideLLM console tables',
  detect({ head }) {
    if (TITLED.test(head)) return { score: 0.9, reason: 'GuideLLM table title above a |===| rule' };
    if (UNTITLED.test(head)) return { score: 0.7, reason: 'pipe table with Benchmark / Strategy header under a |===| rule' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // in pieces (src/parse/pieces.ts) cut before a line that is not a table's: a frame ends there,
    // and a title is only ever the line right above a rule
    const items: ConsoleItem[] = [];
    const cutsBefore = (i: number): boolean => !TABLE_LINE.test(source.lines[i] as string);
    for (const piece of lexedPieces(source.lines, cutsBefore, (text) => guidellmLexer().tokenize(text))) {
      for (const item of toItems(parseTokens(guidellmConsoleParser(), piece.tokens, (p) => p.document()))) items.push(item);
    }
    return toRuns(items, source, sink);
  },
};

type Event = { readonly kind: 'table'; readonly reader: TableReader } | { readonly kind: 'model'; readonly value: string; readonly line: number };

function toRuns(items: readonly ConsoleItem[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const { events, unrecognized } = readItems(items, source, sink);
  const collector = new ReportCollector();
  for (const e of events) {
    if (e.kind === 'model') collector.model(e.value, e.line);
    else addTable(e.reader, collector, unrecognized, source, sink);
  }
  // (no spread: a long log has more such lines than a call takes arguments)
  const first = unrecognized.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  if (unrecognized.length > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, unrecognized.length);
  const ctx = documentContext(source.lines);
  let floor = -1;
  return collector.reports.flatMap((report) => {
    const label = labelAbove(ctx, source.lines, report.line - 1, floor);
    floor = report.line - 1;
    return reportRuns(report, label, source, sink);
  });
}

/**
 * The tables (frames read into tables, rows after a break joined to the table they continue) and
 * model lines of a document, in order, and the lines that are neither GuideLLM's nor a write-up's.
 */
function readItems(items: readonly ConsoleItem[], source: TextSource, sink: DiagnosticSink): { events: Event[]; unrecognized: number[] } {
  const events: Event[] = [];
  const unrecognized: number[] = [];
  let last: TableReader | null = null;
  // the indented details GuideLLM prints below a status line are its own
  let inStatus = false;
  for (const item of items) {
    if (item.kind === 'frame') {
      inStatus = false;
      const first = item.lines[0];
      if (continues(item, last)) {
        if (first) sink.report('parse/syntax', { file: source.path, line: first.line, column: 1 }, 'a table title or top rule (rows after a break continue the table above)', first.text.trim());
      } else {
        last = new TableReader(item.title, item.titleLine ?? first?.line ?? 1);
        events.push({ kind: 'table', reader: last });
      }
      for (const l of item.lines) last?.feed(l);
    } else if (item.kind === 'model') {
      inStatus = true;
      const model = /backend validated with model (\S+)/.exec(item.text)?.[1];
      if (model) events.push({ kind: 'model', value: model, line: item.line });
    } else if (item.kind === 'status') {
      inStatus = true;
    } else if (item.text !== '' && !(inStatus && /^\s/.test(source.lines[item.line - 1] ?? ''))) {
      inStatus = false;
      if (!WRITE_UP.test(item.text)) unrecognized.push(item.line);
    }
  }
  return { events, unrecognized };
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
