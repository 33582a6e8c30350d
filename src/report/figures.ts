import type { TopLevelSpec } from 'vega-lite';
import { loadAxis, loadAxisName } from '../analyze/load-axis.js';
import { CHART_IDS, CHARTS, type ChartId } from '../charts/catalogue.js';
import { filterText, inPart, legibleParts, type PartTerm } from '../charts/parts.js';
import { binTimelineRows } from '../charts/time-bins.js';
import { hasTurns } from '../charts/turn-lines.js';
import { naturalOrder } from '../core/natural-order.js';
import type { ChartOptions, Row } from '../charts/types.js';
import { applyBlogPreset, captionFor } from '../render/preset.js';
import { renderSvg } from '../render/svg.js';
import type { ReportTables } from './tables.js';

/** A chart drawn for the report, or the reason it was left out. */
export type ReportFigure =
  | { readonly id: string; readonly chart: ChartId; readonly title: string; readonly drawn: true; readonly spec: TopLevelSpec; readonly svg: string; readonly note: string | null }
  | { readonly id: string; readonly chart: ChartId; readonly title: string; readonly drawn: false; readonly reason: string; readonly parts?: string };

/**
 * A crowded chart is drawn in parts when at most this many can each be read (ten models' heatmaps,
 * say); past that the report gives the reason and the `--filter` of one part only.
 */
export const MAX_CHART_PARTS = 12;

/**
 * The figures of a report, in order: each catalogue chart once, metric lines once per key metric,
 * the server timeline also once per log that served runs (`log`).
 */
interface FigurePlan {
  readonly chart: ChartId;
  readonly y?: string;
  readonly log?: string;
}
const METRIC_LINES = ['output_throughput', 'mean_tpot_ms', 'mean_ttft_ms', 'mean_e2el_ms'];
/** Key metrics only some tools measure: drawn when a run has them, not said to be missing from every other report. */
const MEASURED_METRIC_LINES = ['energy_per_output_token_j'];

/**
 * A campaign's logs each get a server timeline of their own, with the runs they served shaded,
 * when there are at most this many such logs (the whole timeline overlays the logs, and a run's
 * stretch can be shaded only on a timeline of its own log).
 */
const MAX_LOG_TIMELINES = 8;

/**
 * Every catalogue chart, metric lines once per key metric (the headline metric too, when it is
 * none of them; energy per output token when a run measured it), the server timeline then once
 * per log in `logs`; the per-turn chart only for a campaign with multi-turn runs (`turns`), not
 * said to be missing from every other report.
 */
function reportFigures(metric: string, logs: readonly string[], turns: boolean, runs: readonly Row[]): FigurePlan[] {
  const measured = MEASURED_METRIC_LINES.filter((c) => runs.some((r) => typeof r[c] === 'number'));
  const ys = [...new Set([...METRIC_LINES, ...measured, metric])];
  return CHART_IDS.flatMap((chart): FigurePlan[] => {
    if (chart === 'metric-lines') return ys.map((y) => ({ chart, y }));
    if (chart === 'turn-lines') return turns ? [{ chart }] : [];
    if (chart === 'server-timeline') return [{ chart }, ...logs.map((log) => ({ chart, log }))];
    return [{ chart }];
  });
}

/** The logs whose stats lines served runs (their `run_id`), when there are several logs and few such. */
function servingLogs(timeline: readonly Row[]): string[] {
  const files = new Set<string>();
  const serving = new Set<string>();
  for (const r of timeline) {
    const file = String(r.source_file);
    files.add(file);
    if (r.run_id !== null && r.run_id !== undefined) serving.add(file);
  }
  return files.size > 1 && serving.size <= MAX_LOG_TIMELINES ? naturalOrder(serving) : [];
}

/** The rows each chart reads, by its declared input. */
export function chartRows(tables: ReportTables, id: ChartId): readonly Row[] {
  const input = CHARTS[id].input;
  if (input === 'runs') return tables.runs;
  // binned here, from the table's rows one at a time: the chart draws at most MAX_POINTS a log
  if (input === 'timeline') return binTimelineRows(tables.timeline);
  return tables.comparison;
}

/** The baseline filter as `column → value` for charts that draw the baseline as reference. */
export function baselineRecord(tables: ReportTables): Record<string, string> | undefined {
  if (!tables.baseline) return undefined;
  return Object.fromEntries(tables.baseline.terms.map((t) => [t.column, t.value]));
}

/** Every catalogue chart the data can support, with the blog preset and a caption of engines/models. */
export async function buildFigures(tables: ReportTables, metric = 'output_throughput'): Promise<ReportFigure[]> {
  const caption = captionFor(tables.runs);
  const baseline = baselineRecord(tables);
  // the comparison charts draw the headline metric's speedups: the default one draws as before
  const options: ChartOptions = { ...(baseline ? { baseline } : {}), ...(metric === 'output_throughput' ? {} : { metric }), runs: tables.runs, configColumns: tables.configColumns };
  const out: ReportFigure[] = [];
  const timeline = chartRows(tables, 'server-timeline');
  const logs = servingLogs(timeline);
  for (const { chart, y, log } of reportFigures(metric, logs, hasTurns(tables.runs), tables.runs)) {
    const def = CHARTS[chart];
    const all = def.input === 'timeline' ? timeline : chartRows(tables, chart);
    const rows = log === undefined ? all : all.filter((r) => r.source_file === log);
    // the charts drawn along the load name it; the others keep their words
    const axis = ALONG_LOAD.has(chart) ? loadAxis(rows) : 'max_concurrency';
    const id = log !== undefined ? `${chart}-log-${String(logs.indexOf(log) + 1).padStart(2, '0')}` : y === undefined ? chart : `${chart}-${y}`;
    const title = alongLoad(log !== undefined ? `${def.title}: ${log}` : y === undefined ? def.title : `${def.title}: ${y}`, axis);
    // a log's own timeline names it in its title, and its runs' engines and models in its caption
    const chartOptions = log !== undefined ? { ...options, title } : y === undefined ? options : { ...options, y };
    const result = def.build(rows, chartOptions);
    const note = def.note ? alongLoad(def.note, axis) : null;
    if (!result.ok) {
      out.push({ id, chart, title, drawn: false, reason: result.reason });
      continue;
    }
    if (result.crowded === undefined) {
      out.push(await drawFigure(id, chart, title, result.spec, log === undefined ? caption : servedCaption(tables.runs, rows, caption), note));
      continue;
    }
    // a crowded chart is drawn in parts that can be read, each what plot --filter draws, on the
    // whole chart's speedup scale; when it takes too many, it is left out with its reason: nobody
    // asked for that one
    const parts = legibleParts(rows, (part) => def.build(part, { ...chartOptions, scaleRows: rows }), MAX_CHART_PARTS);
    if (parts === null) {
      out.push({ id, chart, title, drawn: false, reason: result.crowded });
      continue;
    }
    const columns = [...new Set(parts.flatMap((p) => p.terms.map((t) => t.column)))];
    out.push({ id, chart, title, drawn: false, reason: result.crowded, parts: `${parts.length} parts, by ${columns.join(' and ')}` });
    for (const [i, part] of parts.entries()) {
      const partId = `${id}-part-${String(i + 1).padStart(2, '0')}`;
      const partTitle = `${title} (${filterText(part.terms)})`;
      if (!part.result.ok) out.push({ id: partId, chart, title: partTitle, drawn: false, reason: part.result.reason });
      else out.push(await drawFigure(partId, chart, partTitle, part.result.spec, partCaption(tables.runs, part.terms, caption), note));
    }
  }
  return out;
}

async function drawFigure(id: string, chart: ChartId, title: string, spec: TopLevelSpec, caption: string, note: string | null): Promise<ReportFigure> {
  const styled = applyBlogPreset(spec, caption);
  return { id, chart, title, drawn: true, spec: styled, svg: await renderSvg(styled, id), note };
}

/** A log's timeline's caption: the engines and models of the runs its lines served. */
function servedCaption(runs: readonly Row[], lines: readonly Row[], whole: string): string {
  const ids = new Set(lines.map((r) => r.run_id));
  const own = captionFor(runs.filter((r) => r.run_id !== null && ids.has(r.run_id)));
  return own === '' ? whole : own;
}

/** A part's caption: the engines and models of its runs, then the terms that are not the model. */
function partCaption(runs: readonly Row[], terms: readonly PartTerm[], whole: string): string {
  const own = captionFor(runs.filter((r) => inPart(r, terms)));
  const rest = filterText(terms.filter((t) => t.column !== 'model')).replaceAll(',', ', ');
  return [own === '' ? whole : own, rest].filter((p) => p !== '').join(' · ');
}

/** Charts whose x axis is the runs' load axis (loadAxis), whichever it is. */
const ALONG_LOAD: ReadonlySet<ChartId> = new Set<ChartId>(['speedup-lines', 'metric-lines']);

/**
 * A catalogue title or note written for a concurrency sweep, for the load the chart is drawn along
 * (the charts draw along loadAxis): `Speedup vs request rate`, `… against batch_size`.
 */
function alongLoad(text: string, axis: string): string {
  if (axis === 'max_concurrency') return text;
  return text.replaceAll('max_concurrency', axis).replaceAll('concurrency', loadAxisName(axis));
}
