import { loadAxis } from '../analyze/load-axis.js';
import { columnTitle, distinct, lowerIsBetter, metricOf, num, text } from './fields.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { configurationKeys, seriesNamer } from './series.js';
import { finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

interface Bar {
  group: string;
  config: string;
  value: number;
  pct: number;
  text: string;
  baseline: boolean;
  order: number;
}

/**
 * The "optimization ladder": one bar per labelled configuration with its % change vs baseline.
 * Reads comparison rows; the baseline value is recovered from the candidate and its speedup.
 */
export function ladderChart(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = metricOf(options);
  const field = `speedup_${metric}`;
  const ok = rows.filter((r) => (r.pair_status === undefined || text(r.pair_status) === 'ok') && num(r[metric]) !== null && num(r[field]) !== null);
  if (ok.length === 0) return chartSkip(`no paired runs with ${metric} and ${field}`);
  const groupCol = options.facet ?? loadAxis(ok);
  const keys = configurationKeys(ok, options, undefined, [groupCol]);
  const name = seriesNamer(ok, keys, options.color);
  const bars: Bar[] = [];
  const seenBaseline = new Set<string>();
  for (const r of ok) {
    const value = num(r[metric]) ?? 0;
    const speedup = num(r[field]) ?? 1;
    const group = text(r[groupCol]) ?? 'all';
    const pct = round((speedup - 1) * 100);
    bars.push({ group, config: name(r), value: round(value), pct, text: `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`, baseline: false, order: 1 });
    const baseKey = `${group}\u0000${text(r.baseline_run_id) ?? ''}`;
    if (!seenBaseline.has(baseKey)) {
      seenBaseline.add(baseKey);
      const base = lowerIsBetter(metric) ? value * speedup : value / speedup;
      bars.push({ group, config: 'baseline', value: round(base), pct: 0, text: 'baseline', baseline: true, order: 0 });
    }
  }
  // a bar per pair and at most one baseline bar with it: half as many pairs as bars
  const crowded = bars.length > LEGIBLE.bars ? crowdedReason('ladder', options, bars.length, 'bars', LEGIBLE.bars, filterHint(ok, keys, (r) => String(r.run_id), LEGIBLE.bars / 2)) : undefined;
  bars.sort((a, b) => groupOrder(a.group, b.group) || a.order - b.order || a.value - b.value || (a.config < b.config ? -1 : 1));
  const y = { field: 'config', type: 'nominal', title: null, sort: null };
  const x = { field: 'value', type: 'quantitative', title: columnTitle(metric) };
  const tooltip = [
    { field: 'group', title: groupCol },
    { field: 'config', title: 'configuration' },
    { field: 'value', title: metric, format: ',.2f' },
    { field: 'text', title: 'vs baseline' },
  ];
  const inner = {
    width: 420,
    height: { step: 22 },
    layer: [
      { mark: { type: 'bar' }, encoding: { x, y, color: { condition: { test: 'datum.baseline', value: '#999' }, value: '#0072B2' }, tooltip } },
      { mark: { type: 'text', align: 'left', dx: 4, fontSize: 11 }, encoding: { x, y, text: { field: 'text', type: 'nominal' }, tooltip } },
    ],
  };
  const groups = distinct(bars as unknown as Row[], 'group');
  // One panel per group (vconcat, not facet): layered facets with independent y scales make
  // Vega-Lite warn and mis-size the view.
  const body =
    groups.length > 1
      ? { vconcat: groups.map((g) => ({ title: { text: `${groupCol} = ${g}`, fontSize: 12 }, data: { values: bars.filter((b) => b.group === g) }, ...inner })), resolve: { scale: { x: 'shared' } } }
      : { data: { values: bars }, ...inner };
  return chartOk(finish(body, options, `Optimization ladder: ${columnTitle(metric)}, % vs baseline`), crowded);
}

function groupOrder(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

export const LADDER: ChartDef = { id: 'ladder', title: 'Optimization ladder', note: 'Bars are the metric per configuration, labelled with the % change vs the matching baseline (grey).', input: 'comparison', build: ladderChart };
