import type { TopLevelSpec } from 'vega-lite';
import { loadAxis, loadAxisName } from '../analyze/load-axis.js';
import { CHART_IDS, CHARTS, type ChartId } from '../charts/catalogue.js';
import { filterText, inPart, legibleParts, type PartTerm } from '../charts/parts.js';
import { binTimelineRows } from '../charts/time-bins.js';
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

/** The figures of a report, in order: each catalogue chart once, metric lines once per key metric. */
interface FigurePlan {
  readonly chart: ChartId;
  readonly y?: string;
}
const METRIC_LINES = ['output_throughput', 'mean_tpot_ms', 'mean_ttft_ms', 'mean_e2el_ms'];

/** Every catalogue chart, metric lines once per key metric (the headline metric too, when it is none of them). */
function reportFigures(metric: string): FigurePlan[] {
  const ys = METRIC_LINES.includes(metric) ? METRIC_LINES : [...METRIC_LINES, metric];
  return CHART_IDS.flatMap((chart): FigurePlan[] => (chart === 'metric-lines' ? ys.map((y) => ({ chart, y })) : [{ chart }]));
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
  const options: ChartOptions = { ...(baseline ? { baseline } : {}), ...(metric === 'output_throughput' ? {} : { metric }), runs: tables.runs };
  const out: ReportFigure[] = [];
  for (const { chart, y } of reportFigures(metric)) {
    const def = CHARTS[chart];
    const rows = chartRows(tables, chart);
    // the charts drawn along the load name it; the others keep their words
    const axis = ALONG_LOAD.has(chart) ? loadAxis(rows) : 'max_concurrency';
    const id = y === undefined ? chart : `${chart}-${y}`;
    const title = alongLoad(y === undefined ? def.title : `${def.title}: ${y}`, axis);
    const chartOptions = y === undefined ? options : { ...options, y };
    const result = def.build(rows, chartOptions);
    const note = def.note ? alongLoad(def.note, axis) : null;
    if (!result.ok) {
      out.push({ id, chart, title, drawn: false, reason: result.reason });
      continue;
    }
    if (result.crowded === undefined) {
      out.push(await drawFigure(id, chart, title, result.spec, caption, note));
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
