import { loadAxis } from '../analyze/load-axis.js';
import { metricOf, num, text } from './fields.js';
import { naturalOrder } from '../core/natural-order.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { powersOfTwo } from './metric-lines.js';
import { configurationKeys, seriesName } from './series.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** Speedup against concurrency per method; the rule at 1 shows where speculation stops paying. */
export function speedupLines(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = metricOf(options);
  const field = `speedup_${metric}`;
  const xCol = options.x ?? loadAxis(rows);
  const ok = rows.filter((r) => r.pair_status === undefined || text(r.pair_status) === 'ok');
  // one line per method, and per anything else that varies (model, tp, …): a line never joins two configurations' speedups
  const keys = configurationKeys(ok, options, undefined, [xCol]);
  const otherKeys = keys.filter((k) => k !== 'spec_method' && k !== 'num_spec_tokens');
  const seriesOf = (r: Row): string => seriesName({ ...r, label: null }, keys.length > 0 ? keys : ['spec_method'], options.color);
  const points = ok.flatMap((r) => {
    const x = num(r[xCol]);
    const y = num(r[field]);
    if (x === null || x <= 0 || y === null) return [];
    return [{ series: seriesOf(r), x, speedup: y, source: `${String(r.source_file)}:${String(r.source_line)}` }];
  });
  if (points.length === 0) return chartSkip(`no ${field} values with ${xCol}`);
  const lines = new Set(points.map((p) => p.series)).size;
  const crowded = lines > LEGIBLE.series ? crowdedReason('speedup-lines', options, lines, 'configurations', LEGIBLE.series, filterHint(ok, keys, seriesOf, LEGIBLE.series)) : undefined;
  const legend = options.color ?? (otherKeys.length > 0 ? 'configuration' : 'method');
  points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.x - b.x || a.speedup - b.speedup));
  const x = { field: 'x', type: 'quantitative', title: xCol, scale: { type: 'log', base: 2 }, axis: { values: powersOfTwo(points.map((p) => p.x)), format: 'd' } };
  // a part of a crowded chart takes the whole chart's speedup axis (with 1, where the rule is)
  const scale = options.scaleRows ? { zero: false, nice: true, domain: speedupExtent(options.scaleRows, field, xCol) } : { zero: false };
  // two lines: a rotated title taller than the plot pushes it down (a blank band above and below)
  const y = { field: 'speedup', type: 'quantitative', title: [`speedup (${metric})`, '> 1 = faster'], scale };
  const body = {
    width: 520,
    height: 300,
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y,
          color: { field: 'series', type: 'nominal', title: legend, sort: naturalOrder(points.map((p) => p.series)), scale: { range: CATEGORY_COLORS } },
          tooltip: [
            { field: 'series', title: legend },
            { field: 'x', title: xCol },
            { field: 'speedup', title: field, format: '.3f' },
            { field: 'source', title: 'source' },
          ],
        },
      },
      { data: { values: [{ y: 1 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { field: 'y', type: 'quantitative' } } },
    ],
  };
  return chartOk(finish(body, options, `Speedup vs ${xCol} (dashed: break-even at 1×)`, points.map((p) => p.series)), crowded);
}

/** The lowest and highest speedup the lines of these rows draw, and 1. */
function speedupExtent(rows: readonly Row[], field: string, xCol: string): [number, number] {
  let lo = 1;
  let hi = 1;
  for (const r of rows) {
    const x = num(r[xCol]);
    const y = num(r[field]);
    if ((r.pair_status !== undefined && text(r.pair_status) !== 'ok') || x === null || x <= 0 || y === null) continue;
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  return [lo, hi];
}

export const SPEEDUP_LINES: ChartDef = { id: 'speedup-lines', title: 'Speedup vs concurrency', note: 'Speedup of each method against max_concurrency; below the dashed line at 1× speculation costs more than it saves.', input: 'comparison', build: speedupLines };
