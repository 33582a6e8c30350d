import { headlineMetric } from '../analyze/headline-metric.js';
import { allSummaries, type SummaryTable } from '../analyze/summaries.js';
import { counted } from '../core/counted.js';
import { clockOffsetText } from '../core/messages.js';
import { html } from '../render/html-escape.js';
import { comparisonColumns, displayRows, plainRows, presentColumns, RUN_COLUMNS } from './columns.js';
import { buildFigures, type ReportFigure } from './figures.js';
import { keyFindings } from './findings.js';
import { htmlTable, shownRows } from './html-table.js';
import { page } from './page.js';
import { summaryMarkdown } from './summary-md.js';
import type { ReportTables } from './tables.js';

/** A report in memory: the page, the Markdown summary and the figures behind them. */
export interface BuiltReport {
  readonly html: string;
  readonly markdown: string;
  readonly figures: readonly ReportFigure[];
  readonly diagnosticRows: readonly Record<string, string | number>[];
  /** One row per file read: its status, formats and counts. */
  readonly fileRows: readonly Record<string, string | number>[];
  /** One row per configuration whose server never served (a crash or failed start). */
  readonly failedRows: readonly Record<string, string | number>[];
  /** The analysis summaries with at least one row (best speedup, break-even, best K, ladder, SLA when asked). */
  readonly summaries: readonly SummaryTable[];
}

const FILE_COLUMNS = ['path', 'status', 'formats', 'runs', 'errors', 'warnings', 'infos'];

export interface BuildReportOptions {
  /** The metric the report leads with (`--metric`): default headlineMetric's. */
  readonly metric?: string;
  /** SLA limits by column (`--sla`, parseSla): the report also says the largest load meeting them. */
  readonly sla?: Readonly<Record<string, number>>;
}

/** Everything a report shows, computed from the tables; no clock, no absolute path. */
export async function buildReport(tables: ReportTables, title: string, options: BuildReportOptions = {}): Promise<BuiltReport> {
  const metric = options.metric ?? headlineMetric(tables.runs);
  const figures = await buildFigures(tables, metric);
  const found = foundLines(tables);
  const findings = tables.runs.length === 0 ? ['No benchmark runs were found in the given paths, so there is nothing to compare or chart.'] : keyFindings(tables.comparison, tables.failed, metric, tables.configColumns);
  const pairs = tables.comparison.filter((r) => r.pair_status !== 'failed-configuration');
  const compCols = presentColumns(pairs, comparisonColumns(metric));
  const comparison = shownRows(pairs, (rows) => displayRows(rows, compCols));
  const runCols = presentColumns(tables.runs, RUN_COLUMNS);
  const runs = shownRows(tables.runs, (rows) => displayRows(rows, runCols));
  const diagnosticRows = tables.diagnostics.map((d) => ({ at: `${d.file}:${d.line}:${d.column}`, severity: d.severity, code: d.code, message: d.message }));
  const fileRows = tables.files.map((f) => ({ path: f.path, status: f.status, formats: f.formats.join(', '), runs: f.runs, errors: f.errors, warnings: f.warnings, infos: f.infos }));
  const failedRows = tables.failed.map((f) => ({ source: `${f.source_file}:${f.source_line}`, error_at: f.error_at, exception: f.exception, message: f.message }));
  const summaries = allSummaries(tables.comparison, tables.runs, { metric, configColumns: tables.configColumns, ...(options.sla ? { sla: options.sla } : {}) }).filter((t) => t.id !== 'failed-configurations' && t.rows.length > 0);
  const summaryHtml = summaries.map((t) => {
    const plain = plainRows(t.rows);
    return html`<h3>${t.title}</h3>${htmlTable(`summary-${t.id}`, plain.rows, plain.columns, `tables/summary-${t.id}.csv`)}`;
  });
  const markup = page({
    title,
    found,
    findings,
    figures,
    summaries: summaryHtml,
    comparison: htmlTable('comparison-table', comparison.rows, ['source', ...compCols], 'tables/comparison.csv', comparison.total),
    failed: htmlTable('failed-table', failedRows, ['source', 'error_at', 'exception', 'message'], 'tables/failed-configurations.csv'),
    runs: htmlTable('runs-table', runs.rows, ['source', ...runCols], 'tables/runs.csv', runs.total),
    files: htmlTable('files-table', fileRows, FILE_COLUMNS, 'tables/files.csv'),
    diagnostics: htmlTable('diagnostics-table', diagnosticRows, ['at', 'severity', 'code', 'message'], 'tables/diagnostics.csv'),
  });
  return { html: markup, markdown: summaryMarkdown(title, found, findings, comparison, figures, summaries), figures, diagnosticRows, fileRows, failedRows, summaries };
}

/** Sentences for "what was found": files, formats, runs, timeline lines, diagnostics, baseline. */
function foundLines(t: ReportTables): string[] {
  const formats = [...new Set(t.files.flatMap((f) => f.formats))].sort();
  const count = (s: string): number => t.diagnostics.filter((d) => d.severity === s).length;
  const lines = [
    `${counted(t.files.length, 'file')} read; ${t.files.filter((f) => f.status === 'parsed').length} recognized${formats.length > 0 ? ` (formats: ${formats.join(', ')})` : ''}.`,
    `${counted(t.runs.length, 'benchmark run')}, ${counted(t.timeline.length, 'server stats line')}, ${counted(t.failed.length, 'failed configuration')}.`,
    `Diagnostics: ${counted(count('error'), 'error')}, ${counted(count('warning'), 'warning')}, ${count('info')} info.`,
  ];
  // runs on another clock than the logs beside them lose their server's configuration: said here, not only in the diagnostics
  const offClock = t.diagnostics.filter((d) => d.code === 'link/off-clock').length;
  if (offClock > 0) {
    // the one offset every warning offers, when they all offer it: what to type
    const [offset, other] = t.clockOffsets;
    const pass = typeof offset === 'number' && other === undefined ? `pass --clock-offset ${clockOffsetText(offset)}: it puts ${offClock === 1 ? 'it' : 'them'} on ${offClock === 1 ? "its server's" : "their servers'"} busy stats, and no other quarter hour does` : 'pass --clock-offset';
    lines.push(`${counted(offClock, 'run')} not linked to the server logs beside ${offClock === 1 ? 'it' : 'them'}: no stats there at ${offClock === 1 ? 'its' : 'their'} time (link/off-clock below); if the runs' clock and the logs' are in two time zones, ${pass}.`);
  }
  // acceptance a result did not measure, read from its server's log: the reader should know whose number it is
  const logged = t.runs.filter((r) => typeof r.config_sources === 'string' && r.config_sources.includes('"server-stats:')).length;
  if (logged > 0) lines.push(`${counted(logged, 'run')} took ${logged === 1 ? 'its' : 'their'} speculative-decoding acceptance from ${logged === 1 ? 'its' : 'their'} server's log: the stats lines logged while ${logged === 1 ? 'it' : 'they'} ran (config_sources names them).`);
  if (t.baseline === null) lines.push('No baseline: pass --baseline column=value to compute speedups.');
  else if (t.baselineDefaulted) lines.push(`Baseline: ${t.baseline.text} (picked by default because such runs exist; pass --baseline to choose another).`);
  else lines.push(`Baseline: ${t.baseline.text}.`);
  return lines;
}

