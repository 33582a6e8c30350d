import { columnTitle, hasColumn, num } from './fields.js';
import { naturalOrder } from '../core/natural-order.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { combineRepeats } from './repeats.js';
import { configurationKeys, seriesNamer } from './series.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';
import { valueScale } from './value-scale.js';

interface Point {
  series: string;
  x: number;
  y: number;
  concurrency: number | null;
  /** Repeats drawn as this point (at their median). */
  runs: number;
  source: string;
}

/** Per-user vs per-GPU throughput, with the frontier of runs no other run beats on both. */
export function paretoChart(rows: readonly Row[], options: ChartOptions): ChartResult {
  const xCol = options.x ?? 'output_throughput_per_user';
  const yCol = options.y ?? (hasColumn(rows, 'output_throughput_per_gpu') ? 'output_throughput_per_gpu' : 'output_throughput');
  const keys = configurationKeys(rows, options, undefined, ['max_concurrency']);
  const name = seriesNamer(rows, keys, options.color);
  const measured = rows.flatMap((r) => {
    const x = num(r[xCol]);
    const y = num(r[yCol]);
    if (x === null || y === null) return [];
    const series = name(r);
    const concurrency = num(r.max_concurrency);
    const source = `${String(r.source_file)}:${String(r.source_line)}`;
    // repeats are told by their concurrency; a run without one stands alone
    return [{ key: concurrency === null ? `${series}\u0000${source}` : `${series}\u0000${concurrency}`, values: [x, y], series, concurrency, source }];
  });
  if (measured.length === 0) return chartSkip(`no runs with both ${xCol} and ${yCol}`);
  const colours = new Set(measured.map((m) => m.series)).size;
  const crowded = colours > LEGIBLE.series ? crowdedReason('pareto', options, colours, 'configurations', LEGIBLE.series, filterHint(rows, keys, name, LEGIBLE.series)) : undefined;
  const points: Point[] = combineRepeats(measured).map((c) => ({
    series: c.first.series,
    x: c.median[0] as number,
    y: c.median[1] as number,
    concurrency: c.first.concurrency,
    runs: c.runs,
    source: c.source,
  }));
  points.sort((a, b) => a.x - b.x || a.y - b.y || (a.series < b.series ? -1 : 1));
  const frontier = paretoFrontier(points).map((p, i) => ({ x: p.x, y: p.y, order: i }));
  const x = { field: 'x', type: 'quantitative', title: columnTitle(xCol), scale: valueScale(points.map((p) => p.x)) };
  const y = { field: 'y', type: 'quantitative', title: columnTitle(yCol), scale: valueScale(points.map((p) => p.y)) };
  const body = {
    width: 520,
    height: 320,
    layer: [
      { data: { values: frontier }, mark: { type: 'line', color: '#999', strokeDash: [2, 2], interpolate: 'step-before' }, encoding: { x, y, order: { field: 'order', type: 'quantitative' } } },
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          x,
          y,
          color: { field: 'series', type: 'nominal', title: 'configuration', sort: naturalOrder(points.map((p) => p.series)), scale: { range: CATEGORY_COLORS } },
          tooltip: [
            { field: 'series', title: 'configuration' },
            { field: 'concurrency', title: 'max_concurrency' },
            { field: 'x', title: xCol, format: ',.1f' },
            { field: 'y', title: yCol, format: ',.1f' },
            ...(points.some((p) => p.runs > 1) ? [{ field: 'runs', title: 'repeats (point at their median)' }] : []),
            { field: 'source', title: 'source' },
          ],
        },
      },
    ],
  };
  return chartOk(finish(body, options, 'Throughput–latency trade-off (dotted: Pareto frontier)', points.map((p) => p.series)), crowded);
}

/** Points not dominated on both axes (higher is better on each), in x order. */
export function paretoFrontier<P extends { x: number; y: number }>(points: readonly P[]): P[] {
  const sorted = [...points].sort((a, b) => b.x - a.x || b.y - a.y);
  const out: P[] = [];
  let bestY = -Infinity;
  for (const p of sorted) {
    if (p.y > bestY) {
      out.push(p);
      bestY = p.y;
    }
  }
  return out.reverse();
}

export const PARETO: ChartDef = { id: 'pareto', title: 'Throughput–latency Pareto', note: 'Each point is a configuration at one concurrency (the median of its repeats); the dotted staircase joins the points no other point beats on both axes.', input: 'runs', build: paretoChart };
