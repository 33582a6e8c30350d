import { columnTitle, matchesFilter, metricOf, num } from './fields.js';
import { seriesName, varyingKeys } from './series.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** A metric against concurrency, one line per configuration; the baseline dashed in black. */
export function metricLines(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = options.y ?? metricOf(options);
  const xCol = options.x ?? 'max_concurrency';
  const keys = varyingKeys(rows);
  const points = rows.flatMap((r) => {
    const x = num(r[xCol]);
    const y = num(r[metric]);
    if (x === null || x <= 0 || y === null) return [];
    const baseline = options.baseline !== undefined && matchesFilter(r, options.baseline);
    return [{ series: baseline ? `baseline: ${seriesName(r, keys, options.color)}` : seriesName(r, keys, options.color), x, y, baseline, source: `${String(r.source_file)}:${String(r.source_line)}` }];
  });
  if (points.length === 0) return chartSkip(`no runs with both ${xCol} and ${metric}`);
  points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.x - b.x || a.y - b.y));
  const x = { field: 'x', type: 'quantitative', title: xCol, scale: { type: 'log', base: 2 }, axis: { values: powersOfTwo(points.map((p) => p.x)), format: 'd' } };
  const y = { field: 'y', type: 'quantitative', title: columnTitle(metric), scale: { zero: false } };
  const tooltip = [
    { field: 'series', title: 'configuration' },
    { field: 'x', title: xCol },
    { field: 'y', title: metric, format: ',.2f' },
    { field: 'source', title: 'source' },
  ];
  const color = { field: 'series', type: 'nominal', title: 'configuration', scale: { range: CATEGORY_COLORS } };
  const body = {
    data: { values: points },
    width: 520,
    height: 300,
    layer: [
      { transform: [{ filter: '!datum.baseline' }], mark: { type: 'line', point: true }, encoding: { x, y, color, tooltip } },
      {
        transform: [{ filter: 'datum.baseline' }],
        mark: { type: 'line', point: true, strokeDash: [6, 4], color: '#000' },
        encoding: { x, y, detail: { field: 'series', type: 'nominal' }, tooltip },
      },
    ],
  };
  return chartOk(finish(body, options, `${columnTitle(metric)} vs ${xCol}${options.baseline ? ' (baseline dashed)' : ''}`));
}

/** Axis ticks at the powers of two spanned by the data. */
export function powersOfTwo(values: readonly number[]): number[] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const out: number[] = [];
  for (let p = 2 ** Math.floor(Math.log2(lo)); p <= hi * 1.0001; p *= 2) out.push(p);
  return out;
}

export const METRIC_LINES: ChartDef = { id: 'metric-lines', title: 'Metric vs concurrency', note: 'One line per configuration; the baseline is the dashed black line.', input: 'runs', build: metricLines };
