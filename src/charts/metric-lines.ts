import { loadAxis } from '../analyze/load-axis.js';
import { columnTitle, matchesFilter, metricOf, num } from './fields.js';
import { naturalOrder } from '../core/natural-order.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { combineRepeats } from './repeats.js';
import { configurationKeys, seriesNamer } from './series.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { valueScale } from './value-scale.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** A metric against concurrency, one line per configuration; the baseline dashed in black. */
export function metricLines(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = options.y ?? metricOf(options);
  const xCol = options.x ?? loadAxis(rows);
  const keys = configurationKeys(rows, options, undefined, [xCol]);
  const name = seriesNamer(rows, keys, options.color);
  const measured = rows.flatMap((r) => {
    const x = num(r[xCol]);
    const y = num(r[metric]);
    if (x === null || x <= 0 || y === null) return [];
    const baseline = options.baseline !== undefined && matchesFilter(r, options.baseline);
    const series = baseline ? `baseline: ${name(r)}` : name(r);
    return [{ key: `${series}\u0000${x}`, values: [y], series, x, baseline, source: `${String(r.source_file)}:${String(r.source_line)}` }];
  });
  if (measured.length === 0) return chartSkip(`no runs with both ${xCol} and ${metric}`);
  const lines = new Set(measured.map((m) => m.series)).size;
  const crowded = lines > LEGIBLE.series ? crowdedReason('metric-lines', options, lines, 'configurations', LEGIBLE.series, filterHint(rows, keys, name, LEGIBLE.series)) : undefined;
  const points = combineRepeats(measured).map((c) => ({
    series: c.first.series,
    x: c.first.x,
    y: c.median[0] as number,
    y_min: c.min[0] as number,
    y_max: c.max[0] as number,
    runs: c.runs,
    baseline: c.first.baseline,
    source: c.source,
  }));
  points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.x - b.x));
  const repeated = points.some((p) => p.runs > 1);
  const x = { field: 'x', type: 'quantitative', title: xCol, scale: { type: 'log', base: 2 }, axis: { values: powersOfTwo(points.map((p) => p.x)), format: 'd' } };
  const y = { field: 'y', type: 'quantitative', title: columnTitle(metric), scale: valueScale(points.flatMap((p) => [p.y_min, p.y_max])) };
  const tooltip = [
    { field: 'series', title: 'configuration' },
    { field: 'x', title: xCol },
    { field: 'y', title: repeated ? `${metric} (median of repeats)` : metric, format: ',.2f' },
    ...(repeated
      ? [
          { field: 'runs', title: 'repeats' },
          { field: 'y_min', title: 'lowest', format: ',.2f' },
          { field: 'y_max', title: 'highest', format: ',.2f' },
        ]
      : []),
    { field: 'source', title: 'source' },
  ];
  const color = { field: 'series', type: 'nominal', title: 'configuration', sort: naturalOrder(points.map((p) => p.series)), scale: { range: CATEGORY_COLORS } };
  const range = { ...y, field: 'y_min' };
  const body = {
    data: { values: points },
    width: 520,
    height: 300,
    layer: [
      // the range of the repeats, drawn only where there are several
      ...(repeated
        ? [
            { transform: [{ filter: 'datum.runs > 1 && !datum.baseline' }], mark: { type: 'rule' }, encoding: { x, y: range, y2: { field: 'y_max' }, color, tooltip } },
            { transform: [{ filter: 'datum.runs > 1 && datum.baseline' }], mark: { type: 'rule', color: '#000' }, encoding: { x, y: range, y2: { field: 'y_max' }, tooltip } },
          ]
        : []),
      { transform: [{ filter: '!datum.baseline' }], mark: { type: 'line', point: true }, encoding: { x, y, color, tooltip } },
      {
        transform: [{ filter: 'datum.baseline' }],
        mark: { type: 'line', point: { color: '#000' }, strokeDash: [6, 4], color: '#000' },
        encoding: { x, y, detail: { field: 'series', type: 'nominal' }, tooltip },
      },
    ],
  };
  return chartOk(finish(body, options, `${columnTitle(metric)} vs ${xCol}${points.some((p) => p.baseline) ? ' (baseline dashed)' : ''}`, points.filter((p) => !p.baseline).map((p) => p.series)), crowded);
}

/** Axis ticks at the powers of two spanned by the data. */
export function powersOfTwo(values: readonly number[]): number[] {
  // a loop, not Math.min(...values): a spread of more than some 120,000 values overflows the stack
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const out: number[] = [];
  for (let p = 2 ** Math.floor(Math.log2(lo)); p <= hi * 1.0001; p *= 2) out.push(p);
  return out;
}

export const METRIC_LINES: ChartDef = { id: 'metric-lines', title: 'Metric vs concurrency', note: 'One line per configuration; the baseline is the dashed black line. Repeats of a configuration at one concurrency are drawn at their median, with a bar from the lowest to the highest.', input: 'runs', build: metricLines };
