import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { FieldMapBuilder, RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { type BoxTable, readBoxTables } from './box-table.js';
import { basicInformation, isPairsTable, isPerRequestTable, pairRuns } from './multi.js';
import { isPercentileTable, isSummaryTable, percentileTableRecord, summaryTableRun, withPercentiles } from './per-run.js';
import { isSuiteTable, suiteTableRuns } from './suite.js';
import { withoutLogPrefix } from './text.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';
import { MAX_GAP_LINES } from '../_shared/table-gaps.js';

/** Titles EvalScope prints above its tables: literals, tried on every file's head. */
const RUN_TITLE = 'Benchmarking summary:';
const REPORT_TITLES = ['Performance Test Summary Report', 'Embedding/Rerank Performance Test Summary'];
/** The 2026 perf engine's title (reporting/console.py), the line right above its `simple_grid` table. */
const SUITE_TITLE = 'Performance suite summary:';
/** The start of a run's log, when its tables lie beyond the head (a long run logs every N queries). */
const LOG_START = ' - evalscope - ';
const START_MESSAGE = 'Starting benchmark';

/**
 * ModelScope EvalScope `evalscope perf`'s printed results: the per-run "Benchmarking summary" and
 * "Percentile results" tables it logs (console, tee'd logs, its own `benchmark.log`), one run per
 * summary with the percentiles below it, and the report of several `--parallel`/`--number` pairs
 * (`performance_summary.txt`, or the same printed at the end of the console), one run per pair;
 * the 2026 perf engine's "Performance suite summary" (suite.ts), one run per load.
 * Keys and units are evalscope-perf-json's.
 */
export const grammar: Grammar = readingPastInterleavedLines({
  id: 'evalscope-perf-console',
  title: 'EvalScope perf console tables and performance_summary.txt',
  readsLineText: true,
  detect({ head }) {
    if (head.includes(RUN_TITLE) && tableBelow(head, RUN_TITLE, RUN_TABLE_TOP)) {
      return { score: 0.85, reason: 'evalscope perf "Benchmarking summary:" table' };
    }
    if (head.includes(SUITE_TITLE) && tableBelow(head, SUITE_TITLE, SUITE_TABLE_TOP)) return { score: 0.8, reason: 'evalscope perf engine "Performance suite summary:" table' };
    if (REPORT_TITLES.some((t) => head.includes(t))) return { score: 0.8, reason: 'evalscope perf multi-run report (Performance Test Summary Report)' };
    if (head.includes(LOG_START) && head.includes(START_MESSAGE) && head.includes('parallel')) {
      return { score: 0.5, reason: 'evalscope perf log (Starting benchmark …)' };
    }
    return NOT_MINE;
  },
  parse(source, sink) {
    const tables = readBoxTables(source.lines.map(withoutLogPrefix));
    return runsOf(tables, source, sink);
  },
});

/** A grid or box-drawing table's top border (`+-----+`, `┌─────┐`), in a line that may have a prefix. */
const RUN_TABLE_TOP = /[+┌][-─]/;
/** The suite table's top border, right at its line's start (past its indent). */
const SUITE_TABLE_TOP = /^[ \t]*┌/;

/**
 * Is some line of the head that ends in `title` followed by a table's top border: on the next line,
 * or past up to MAX_GAP_LINES lines written between (the parse reads across them)? Linear scans only.
 */
function tableBelow(head: string, title: string, top: RegExp): boolean {
  for (let i = head.indexOf(title); i >= 0; i = head.indexOf(title, i + 1)) {
    let j = i + title.length;
    while (head[j] === ' ' || head[j] === '\t' || head[j] === '\r') j++;
    if (head[j] !== '\n') continue;
    for (let n = 0; n <= MAX_GAP_LINES && j < head.length; n++) {
      const end = head.indexOf('\n', j + 1);
      if (top.test(head.slice(j + 1, end < 0 ? head.length : end))) return true;
      j = end < 0 ? head.length : end;
    }
  }
  return false;
}

interface Draft {
  run: RunRecord;
  joined: boolean;
}

function runsOf(tables: readonly BoxTable[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const drafts: Draft[] = [];
  const pairs: RunRecord[] = [];
  const loads: RunRecord[] = [];
  let info: FieldMapBuilder | null = null;
  let pairsAt: number | null = null;
  for (let i = 0; i < tables.length; i++) {
    const t = tables[i] as BoxTable;
    if (!t.closed) sink.report('block/truncated', at(source, t.line), 'the table\'s bottom border');
    if (isSummaryTable(t)) {
      const run = summaryTableRun(t, source, sink);
      if (run) drafts.push({ run: t.closed ? run : { ...run, complete: false }, joined: false });
      continue;
    }
    if (isPercentileTable(t)) {
      joinPercentiles(t, drafts, source, sink);
      continue;
    }
    if (isSuiteTable(t)) {
      loads.push(...suiteTableRuns(t, source, sink));
      continue;
    }
    if (isPairsTable(t)) {
      const next = tables[i + 1];
      const perRequest = next && isPerRequestTable(next) ? next : null;
      if (perRequest) i++;
      pairsAt ??= t.line;
      pairs.push(...pairRuns(t, info, perRequest, source, sink));
      continue;
    }
    // the title panel of the report (`Performance Test Summary Report`): one cell, no header
    if (t.header.length === 0 && t.rows.every((r) => r.cells.length <= 1)) continue;
    const basic = basicInformation(t);
    if (basic) {
      info = basic;
      continue;
    }
    sink.report('table/ignored-block', at(source, t.line), `table ${JSON.stringify(t.title ?? t.header.join(' | '))}`);
  }
  if (pairs.length > 0 && drafts.length > 0 && pairsAt !== null) {
    // a console that logged every pair's own tables prints them again in the report at its end
    sink.report('table/ignored-block', at(source, pairsAt), `evalscope multi-run report (${pairs.length} rows: the runs whose own tables are above, again)`);
    return [...drafts.map((d) => d.run), ...loads];
  }
  return [...drafts.map((d) => d.run), ...pairs, ...loads];
}

/** "Percentile results" belong to the summary logged just above them (db_util.py prints them in that order). */
function joinPercentiles(t: BoxTable, drafts: Draft[], source: TextSource, sink: DiagnosticSink): void {
  const last = drafts[drafts.length - 1];
  const record = percentileTableRecord(t, source);
  if (!record) {
    sink.report('table/ignored-block', at(source, t.line), 'evalscope percentile table (no latency or length column)');
    return;
  }
  if (!last || last.joined) {
    sink.report('table/ignored-block', at(source, t.line), 'evalscope percentile table with no Benchmarking summary above it');
    return;
  }
  last.run = withPercentiles(last.run, record, t.lastLine);
  last.joined = true;
}

function at(source: TextSource, line: number): SourcePos {
  return { file: source.path, line, column: 1 };
}
