import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber, scaleExact } from '../../src/parse/values.js';
import { addParameters, isThroughputTable, latencyColumn, throughputColumn } from './columns.js';
import { tgiTableParser } from './parser.js';
import { tgiLexer } from './tokens.js';
import { addTables, type MdTable, type MdTables } from './visitor.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { lookupTable } from '../../src/core/cells.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';

const STEP_TABLE = signature(['Batch Size'], /^[^\S\n]*\|\s*Step\s*\|\s*Batch Size\s*\|/m);
const PARAMETERS = signature(['Parameter'], /^[^\S\n]*\|\s*Parameter\s*\|\s*Value\s*\|[\s\S]{0,2000}^[^\S\n]*\|\s*(?:Decode Length|N Runs)\s*\|/m);

const STATS: Readonly<Record<string, string>> = lookupTable({ average: 'mean', lowest: 'min', highest: 'max', p50: 'median' });
const UNIT_MS: Readonly<Record<string, number>> = lookupTable({ ms: 1, s: 1000, 'µs': 0.001, us: 0.001, ns: 1e-6 });

/** HF `text-generation-benchmark` (TGI) summary tables: one run per batch size. */
export const grammar: Grammar = readingPastInterleavedLines({
  id: 'tgi-benchmark',
  title: 'TGI text-generation-benchmark tables',
  readsLineText: true,
  detect({ head }) {
    if (STEP_TABLE.test(head)) return { score: 0.8, reason: 'Step | Batch Size table' };
    if (PARAMETERS.test(head)) return { score: 0.6, reason: 'Parameter | Value table with Decode Length' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // in pieces (src/parse/pieces.ts) cut before a line that is not a table's: a table ends there
    const found: MdTables = { tables: [], otherLines: [] };
    const cutsBefore = (i: number): boolean => !/^\s*\|/.test(source.lines[i] as string);
    for (const piece of lexedPieces(source.lines, cutsBefore, (text) => tgiLexer().tokenize(text))) {
      addTables(parseTokens(tgiTableParser(), piece.tokens, (p) => p.document()), found);
    }
    return toRuns(found.tables, found.otherLines, source, sink);
  },
});

interface Run {
  readonly builder: FieldMapBuilder;
  readonly line: number;
  values: number;
  /** `latency:prefill`, `throughput:decode`, …: which step rows this batch size had. */
  readonly steps: Set<string>;
}

/** The step rows a complete report has for every batch size. */
const EXPECTED_STEPS = ['latency:prefill', 'latency:decode (token)', 'latency:decode (total)', 'throughput:prefill', 'throughput:decode'];

function toRuns(tables: readonly MdTable[], otherLines: number[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const reports: MdTable[][] = [];
  for (const table of tables) {
    const [first = '', second = ''] = table.header.map((h) => h.toLowerCase());
    if (table.orphan && table.rows[0]) {
      const row = table.rows[0];
      sink.report('parse/syntax', { file: source.path, line: row.line, column: 1 }, 'a table header or the end of the table', `| ${row.cells.join(' | ')} |`);
    }
    const parameters = first === 'parameter' && second === 'value';
    if (!parameters && !(first === 'step' && second === 'batch size')) {
      if (!table.orphan) otherLines.push(table.line);
      for (const r of table.rows) otherLines.push(r.line);
      continue;
    }
    const current = reports.at(-1);
    // rows after a break continue their table, in its report
    if (current && (table.orphan || !startsReport(current, table, parameters))) current.push(table);
    else reports.push([table]);
  }
  // Markdown headings and comments above the tables label the runs; they are not noise.
  const unrecognized = otherLines.filter((n) => !/^\s*#/.test(source.lines[n - 1] ?? '')).sort((a, b) => a - b);
  const firstOther = unrecognized[0];
  if (firstOther !== undefined) sink.report('parse/unrecognized-lines', { file: source.path, line: firstOther, column: 1 }, unrecognized.length);
  const ctx = documentContext(source.lines);
  return reports.flatMap((report) => reportRuns(report, labelAbove(ctx, source.lines, (report[0]?.line ?? 1) - 1, -1), source, sink));
}

/**
 * Whether `table` starts the next report of a file (a write-up pasting several): a parameter table
 * after the current report's own, or after its results; a latency or throughput table when the
 * current report has one already. A report prints one of each.
 */
function startsReport(report: readonly MdTable[], table: MdTable, parameters: boolean): boolean {
  const kind = (t: MdTable): string => (t.header[0]?.toLowerCase() === 'parameter' ? 'parameters' : isThroughputTable(t) ? 'throughput' : 'latency');
  const seen = new Set(report.filter((t) => !t.orphan).map(kind));
  return parameters ? seen.size > 0 : seen.has(kind(table));
}

/** The runs of one report: one per batch size, its parameters applied to each. */
function reportRuns(tables: readonly MdTable[], label: string | null, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const runs = new Map<number, Run>();
  const params = new FieldMapBuilder();
  let above: readonly string[] = [];
  for (const table of tables) {
    if (table.header[0]?.toLowerCase() === 'parameter') addParameters(params, table);
    else above = addStepTable(runs, table, table.orphan ? above : [], source, sink);
  }
  const out: RunRecord[] = [];
  const partial: number[] = [];
  let firstPartial = 0;
  for (const [batch, run] of [...runs].sort((a, b) => a[1].line - b[1].line || a[0] - b[0])) {
    // A batch size with only `NaN`/empty cells measured nothing (typically out of memory): no run.
    if (run.values === 0) {
      sink.report('table/ignored-block', { file: source.path, line: run.line, column: 1 }, `batch size ${batch} (every cell NaN or empty)`);
      continue;
    }
    const missing = EXPECTED_STEPS.filter((k) => !run.steps.has(k));
    if (missing.length > 0) {
      firstPartial ||= run.line;
      partial.push(batch);
    }
    for (const [column, value] of Object.entries(params.fields)) run.builder.set(column, value, params.lines[column] ?? run.line);
    run.builder.set('max_concurrency', batch, run.line);
    run.builder.set('engine', 'tgi', run.line);
    run.builder.set('client', 'tgi-benchmark', run.line);
    out.push({ kind: 'run', at: { file: source.path, line: run.line, column: 1 }, label, complete: missing.length === 0, fields: run.builder.fields, lines: run.builder.lines });
  }
  // One warning per report: a cut paste leaves every batch size partial.
  if (partial.length > 0) sink.report('block/truncated', { file: source.path, line: firstPartial, column: 1 }, `step rows missing for batch size ${partial.join(', ')}`);
  return out;
}

/**
 * Reads one step table (latency or throughput) into the runs. The tool prints its tables with
 * vertically merged cells (tabled's `Merge::vertical`): a cell equal to the one above it is
 * printed blank, so a blank cell is the value above it in its column (the step of a continuation
 * row, the batch size of a report of one batch size, a statistic equal to the previous row's).
 * `above` is the last row of the table this one continues (an orphan after a break); returns
 * this table's last row, blanks filled.
 */
function addStepTable(runs: Map<number, Run>, table: MdTable, above: readonly string[], source: TextSource, sink: DiagnosticSink): readonly string[] {
  const throughput = isThroughputTable(table);
  const stats = table.header.slice(2).map((h) => STATS[h.toLowerCase()] ?? (/^p\d+(?:\.\d+)?$/i.test(h) ? h.toLowerCase() : null));
  let previous = above;
  for (const row of table.rows) {
    const filled = row.cells.map((cell, k) => (cell === '' ? (previous[k] ?? '') : cell));
    previous = filled;
    const [stepCell = '', batchCell = '', ...cells] = filled;
    const step = stepCell.toLowerCase();
    const batch = Number(batchCell);
    if (batchCell === '' || !Number.isInteger(batch)) {
      sink.report('table/bad-cell', { file: source.path, line: row.line, column: 1 }, 'Batch Size', batchCell);
      continue;
    }
    const run = runs.get(batch) ?? { builder: new FieldMapBuilder(), line: row.line, values: 0, steps: new Set<string>() };
    runs.set(batch, run);
    run.steps.add(`${throughput ? 'throughput' : 'latency'}:${step}`);
    cells.forEach((cell, k) => {
      const stat = stats[k];
      if (!stat || cell === '') return;
      const n = readNumber(cell);
      if (!n.ok || n.value === null) {
        if (!n.ok) sink.report('table/bad-cell', { file: source.path, line: row.line, column: 1 }, `${step} ${table.header[k + 2] ?? ''}`, cell);
        return;
      }
      const column = throughput ? throughputColumn(step, stat) : latencyColumn(step, stat);
      if (!column) return;
      const scale = throughput ? 1 : (UNIT_MS[n.rest] ?? 1);
      if (run.builder.set(column, scaleExact(n.value, scale), row.line)) run.values++;
    });
  }
  return previous;
}
