import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { CLIENT, ownName } from '../evalscope-perf-json/summary.js';
import { METRICS, SUMMARY } from '../evalscope-perf-json/suite.js';
import type { BoxRow, BoxTable } from './box-table.js';
import { cellNumber, squashed } from './text.js';

/**
 * The 2026 perf engine's console table (`print_suite`, evalscope/perf/reporting/console.py):
 * `Performance suite summary:` and a tabulate `simple_grid` table, one row per load of the suite,
 * in the order of `suite_summary.json`'s `runs`. Every printed value is a `RunSummary` field or the
 * load's, mapped through evalscope-perf-json's suite mapping (`SUMMARY`, `METRICS`), so a printed
 * load has the columns and units of its `suite_summary.json` entry; what the table leaves out
 * (token throughputs, duration, percentiles, the model) the row does not have.
 */

/** What a header (squashed) is: a `RunSummary` field, a mean (`averages` metric id), the load, or not read. */
type Header = { summary: string } | { average: string } | { load: 'id' | 'value' } | null;

const HEADERS: Readonly<Record<string, Header>> = {
  load: { load: 'id' },
  value: { load: 'value' },
  total: { summary: 'total' },
  succeeded: { summary: 'succeeded' },
  failed: { summary: 'failed' },
  dropped: { summary: 'dropped' },
  rps: { summary: 'request_throughput' },
  'avglatency(s)': { average: 'latency' },
  // succeeded / total × 100, printed to 0.1 %: the counts of the same row say it exactly (suite.ts maps no success_rate)
  success: null,
};

/** The `RunSummary` fields that are counts of requests. */
const COUNTS: ReadonlySet<string> = new Set(['total', 'succeeded', 'failed', 'dropped']);

/**
 * The load modes a load id names: `{index:03d}-{mode}` (config/resolve.py). An SLA search's ids
 * (`sla-{value}-rep-{n}`, sla/tuner.py) name no mode: their Value is a concurrency or a rate.
 */
const MODES = ['closed_loop', 'open_loop', 'conversation'] as const;
type Mode = (typeof MODES)[number];

/** The suite table: a header starting `Load`, `Value` (the only EvalScope table that does). */
export function isSuiteTable(t: BoxTable): boolean {
  return squashed(t.header[0] ?? '') === 'load' && squashed(t.header[1] ?? '') === 'value';
}

/** One run per load row of the suite table. */
export function suiteTableRuns(t: BoxTable, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const keys = t.header.map(squashed);
  const unknown: string[] = [];
  const runs: RunRecord[] = [];
  if (t.rows.length === 0) sink.report('table/no-rows', at(source, t.line), t.title ?? 'Performance suite summary');
  for (const row of t.rows) {
    const b = new FieldMapBuilder();
    const loadId = cellOf(row, keys, 'load');
    const mode = modeOf(loadId);
    keys.forEach((key, k) => {
      const header = HEADERS[key];
      const cell = row.cells[k] ?? '';
      if (header === null || (header !== undefined && 'load' in header && header.load === 'id')) return;
      const value = cellNumber(cell);
      if (value === null) {
        sink.report('table/bad-cell', at(source, row.line), t.header[k] ?? key, cell);
        return;
      }
      if (value === undefined || !Number.isFinite(value)) return;
      if (header === undefined) {
        const name = ownName(t.header[k] ?? key);
        unknown.push(name);
        b.set(name, value, row.line);
        return;
      }
      if ('summary' in header) {
        if (COUNTS.has(header.summary) && !(Number.isInteger(value) && value >= 0)) return;
        b.set(SUMMARY[header.summary] as string, value, row.line);
        return;
      }
      if ('average' in header) {
        const spec = METRICS[header.average];
        if (spec) b.set(`mean_${spec[0]}`, scaleExact(value, spec[1]), row.line);
        return;
      }
      setLoadValue(b, mode, value, row, loadId, source, sink);
    });
    if (mode) b.set('load_mode', mode, row.line);
    // as suite.ts: a conversation load is a multi-turn run
    if (mode === 'conversation') b.set('multi_turn', true, row.line);
    b.set('client', CLIENT, row.line);
    runs.push({ kind: 'run', at: at(source, row.line), label: null, complete: t.closed, fields: b.fields, lines: b.lines });
  }
  reportUnknownMetrics(unknown, sink, source.path, t.line);
  return runs;
}

/**
 * `Value` is `getattr(load, 'concurrency', getattr(load, 'request_rate', '-'))`: the concurrency of
 * a closed loop and of a conversation load (ConversationLoad has one), the request rate of an open
 * loop; with no mode in the load id it is either, and is said, not read.
 */
function setLoadValue(b: FieldMapBuilder, mode: Mode | null, value: number, row: BoxRow, loadId: string, source: TextSource, sink: DiagnosticSink): void {
  if (mode === 'open_loop') {
    if (value > 0) b.set('request_rate', value, row.line);
    return;
  }
  if (mode === 'closed_loop' || mode === 'conversation') {
    if (Number.isInteger(value) && value > 0) b.set('max_concurrency', value, row.line);
    return;
  }
  sink.report('table/ignored-block', at(source, row.line), `evalscope suite load ${JSON.stringify(loadId)} value ${value} (a concurrency or a request rate: its load id names no mode)`);
}

function modeOf(loadId: string): Mode | null {
  return MODES.find((m) => loadId.endsWith(`-${m}`)) ?? null;
}

function cellOf(row: BoxRow, keys: readonly string[], key: string): string {
  const k = keys.indexOf(key);
  return k < 0 ? '' : (row.cells[k] ?? '').trim();
}

function at(source: TextSource, line: number): SourcePos {
  return { file: source.path, line, column: 1 };
}
