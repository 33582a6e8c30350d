import path from 'node:path';
import type { FieldValue } from '../core/types.js';
import { formatRowChunks } from '../output/table-format.js';
import { writeOutput, writeOutputChunks } from '../output/write.js';
import { svgsToPngs } from '../render/png.js';
import { vlJson } from '../render/vl-json.js';
import { buildReport, type BuildReportOptions, type BuiltReport } from './build-report.js';
import type { ReportTables } from './tables.js';

export interface WriteReportOptions extends BuildReportOptions {
  /**
   * Called once the figures are drawn, and again before their PNGs are rendered, last: the command
   * line collects garbage there for a large campaign, so the heap the drawing and the tables' CSV
   * left is not still held while resvg's pixmaps are (peak RSS, issue 7).
   */
  readonly pause?: () => void;
}

/** Writes DIR/index.html, figures/, tables/ and summary.md; returns the relative paths written. */
export async function writeReport(dir: string, tables: ReportTables, title: string, options: WriteReportOptions = {}): Promise<{ report: BuiltReport; written: string[] }> {
  const report = await buildReport(tables, title, options);
  options.pause?.();
  const files = new Map<string, string>();
  files.set('index.html', report.html);
  files.set('summary.md', report.markdown);
  const drawn = report.figures.filter((f) => f.drawn);
  for (const f of drawn) {
    files.set(`figures/${f.id}.svg`, f.svg);
    files.set(`figures/${f.id}.vl.json`, vlJson(f.spec));
  }
  // the tables are written a piece at a time (formatRowChunks): a campaign's runs.csv is tens of
  // MB, and the timeline's rows are built as it goes (a long log has hundreds of thousands)
  const pieces = new Map<string, Iterable<string>>();
  const csv = (rel: string, rows: ArrayLike<Record<string, FieldValue>>): void => void pieces.set(rel, formatRowChunks(rows, 'csv'));
  const { timeline } = tables;
  csv('tables/runs.csv', tables.runs);
  csv('tables/comparison.csv', tables.comparison);
  csv('tables/diagnostics.csv', report.diagnosticRows);
  csv('tables/files.csv', report.fileRows);
  csv('tables/failed-configurations.csv', report.failedRows);
  for (const t of report.summaries) csv(`tables/summary-${t.id}.csv`, t.rows);
  const timelineRows = new Uint32Array(timeline.length).map((_, i) => i);
  pieces.set('tables/timeline.csv', formatRowChunks(timelineRows, 'csv', (i) => timeline.row(i)));
  for (const [rel, content] of files) writeOutput(path.join(dir, rel), content);
  for (const [rel, chunks] of pieces) writeOutputChunks(path.join(dir, rel), chunks);
  options.pause?.();
  // the PNGs last, each written as it is rendered: resvg's native memory comes on top of the heap
  const pngs = drawn.map((f) => `figures/${f.id}.png`);
  let i = 0;
  for await (const png of svgsToPngs(drawn.map((f) => f.svg))) writeOutput(path.join(dir, pngs[i++] as string), png);
  return { report, written: [...files.keys(), ...pieces.keys(), ...pngs].sort() };
}
