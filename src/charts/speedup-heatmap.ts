import { loadAxis } from '../analyze/load-axis.js';
import { darkCell, symmetricRatioDomain } from './log-domain.js';
import { distinct, hasColumn, metricOf, num, text } from './fields.js';
import { naturalCompare } from '../core/natural-order.js';
import { configurationKeys, panelName } from './series.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

interface Cell {
  panel: string;
  spec_method: string;
  x: string;
  y: string;
  speedup: number | null;
  label: string;
  is_best: boolean;
  dark: boolean;
  runs: number;
}

/** Speedup over two sweep axes, one panel per spec method × whatever else varies (dataset, model, tp, …). */
export function speedupHeatmap(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = metricOf(options);
  const field = `speedup_${metric}`;
  const usable = usableRows(rows, field);
  if (!usable.some((r) => num(r[field]) !== null)) return chartSkip(`no ${field} values to draw`);
  const { xCol, yCol, panelKeys, cells } = heatmapCells(rows, usable, field, options);
  const panelCount = new Set(cells.map((c) => `${c.spec_method}\u0000${c.panel}`)).size;
  const crowded = panelCount > LEGIBLE.panels ? crowdedReason('speedup-heatmap', options, panelCount, 'panels', LEGIBLE.panels, filterHint(usable, [...panelKeys, 'spec_method'], (r) => `${text(r.spec_method) ?? 'none'}\u0000${panelName(r, panelKeys)}`, LEGIBLE.panels)) : undefined;
  // a part of a crowded chart takes the whole chart's colour scale
  const domain = options.scaleRows ? wholeDomain(options.scaleRows, field, options) : cellDomain(cells);
  for (const c of cells) c.dark = c.speedup !== null && darkCell(c.speedup, domain);
  const xs = distinct(usable, xCol);
  const ys = distinct(usable, yCol);
  const x = { field: 'x', type: 'ordinal', sort: xs, title: xCol, axis: { labelAngle: 0, grid: false } };
  const y = { field: 'y', type: 'ordinal', sort: ys, title: yCol === 'num_spec_tokens' ? 'K' : yCol, axis: { grid: false, titleAngle: 0, titleAlign: 'right', titleBaseline: 'middle' } };
  const tooltip = [
    { field: 'spec_method', title: 'spec_method' },
    { field: 'x', title: xCol },
    { field: 'y', title: yCol },
    { field: 'speedup', title: field, format: '.3f' },
    { field: 'runs', title: 'runs averaged' },
  ];
  const layer = [
    {
      mark: { type: 'rect', invalid: 'show' },
      encoding: {
        x,
        y,
        color: {
          condition: { test: '!isValid(datum.speedup)', value: '#f2f2f2' },
          field: 'speedup',
          type: 'quantitative',
          title: 'speedup',
          scale: { type: 'log', domain, domainMid: 1, scheme: 'blueorange', reverse: true },
          legend: { format: '.2f' },
        },
        stroke: { condition: { test: 'datum.is_best', value: '#000' }, value: '#ccc' },
        strokeWidth: { condition: { test: 'datum.is_best', value: 2.5 }, value: 0.5 },
        tooltip,
      },
    },
    {
      mark: { type: 'text', fontSize: 11 },
      encoding: {
        x,
        y,
        text: { field: 'label', type: 'nominal' },
        color: { condition: { test: 'datum.dark', value: 'white' }, value: '#222' },
        tooltip,
      },
    },
  ];
  const panels = [...new Set(cells.map((c) => `${c.spec_method}\u0000${c.panel}`))];
  const columns = new Set(cells.map((c) => c.panel)).size;
  const grid = { width: { step: 44 }, height: { step: 30 }, layer };
  const charts = panels.map((key) => {
    const values = cells.filter((c) => `${c.spec_method}\u0000${c.panel}` === key);
    const first = values[0];
    const name = [first?.spec_method ?? '', first?.panel ?? ''].filter((p) => p !== '').join(' · ');
    return { title: { text: name, fontSize: 12 }, data: { values }, ...grid };
  });
  // Separate panels (concat) rather than a facet: each keeps its own sweep axes without Vega-Lite's
  // layered-facet scale warnings, while the colour scale (explicit symmetric domain) stays shared.
  const body = charts.length === 1 ? { data: { values: cells }, ...grid } : { concat: charts, columns, spacing: 16, resolve: { scale: { color: 'shared' } } };
  return chartOk(finish(body, options, `Speedup vs baseline: ${metric}`), crowded);
}

function cellDomain(cells: readonly Cell[]): [number, number] {
  return symmetricRatioDomain(cells.flatMap((c) => (c.speedup === null ? [] : [c.speedup])));
}

/** The whole chart's colour domains, worked out once for all its parts (70 ms each for 10,000 pairs). */
const WHOLE_DOMAINS = new WeakMap<readonly Row[], Map<string, [number, number]>>();

function wholeDomain(rows: readonly Row[], field: string, options: ChartOptions): [number, number] {
  let domains = WHOLE_DOMAINS.get(rows);
  if (!domains) WHOLE_DOMAINS.set(rows, (domains = new Map()));
  const key = JSON.stringify([field, options.x, options.y, options.facet]);
  let domain = domains.get(key);
  if (!domain) domains.set(key, (domain = cellDomain(heatmapCells(rows, usableRows(rows, field), field, options).cells)));
  return domain;
}

function usableRows(rows: readonly Row[], field: string): Row[] {
  return rows.filter((r) => text(r.pair_status) === 'ok' || (r.pair_status === undefined && num(r[field]) !== null));
}

/** The heatmap's axes, panels and cells (a cell: the geometric mean of its runs' speedups). */
function heatmapCells(rows: readonly Row[], usable: readonly Row[], field: string, options: ChartOptions): { xCol: string; yCol: string; panelKeys: string[]; cells: Cell[] } {
  const xCol = options.x ?? loadAxis(rows);
  const yCol = options.y ?? (hasColumn(usable, 'num_spec_tokens') ? 'num_spec_tokens' : 'label');
  // a panel per method and per whatever else varies: runs at another tp or input length are not repeats of a cell
  const panelKeys = options.facet ? [options.facet] : configurationKeys(usable, options, PANEL_KEYS, ['spec_method', xCol, yCol]).filter((k) => k !== xCol && k !== yCol);
  return { xCol, yCol, panelKeys, cells: buildCells(usable, field, xCol, yCol, panelKeys) };
}

/** What tells one panel from another, besides the method, when it varies. */
const PANEL_KEYS = ['dataset', 'model', 'engine', 'tp', 'quantization', 'input_len', 'output_len'];

function buildCells(rows: readonly Row[], field: string, xCol: string, yCol: string, panelKeys: readonly string[]): Cell[] {
  const groups = new Map<string, { panel: string; method: string; x: string; y: string; values: number[] }>();
  // each panel's y values, gathered as the rows are: looked for among every group per panel, a
  // campaign's 160 panels of 10,000 cells took 200 ms a chart
  const panels = new Map<string, { panel: string; method: string; ys: Set<string> }>();
  for (const r of rows) {
    const x = text(r[xCol]);
    const y = text(r[yCol]) ?? '(none)';
    if (x === null) continue;
    const panel = panelName(r, panelKeys);
    const method = text(r.spec_method) ?? 'none';
    const pk = `${method}\u0000${panel}`;
    let p = panels.get(pk);
    if (!p) panels.set(pk, (p = { panel, method, ys: new Set() }));
    const key = `${pk}\u0000${x}\u0000${y}`;
    const g = groups.get(key) ?? { panel, method, x, y, values: [] };
    const v = num(r[field]);
    if (v !== null && v > 0) g.values.push(v);
    groups.set(key, g);
    p.ys.add(y);
  }
  const xs = distinct(rows, xCol);
  const cells: Cell[] = [];
  for (const [pk, p] of [...panels.entries()].sort(([a], [b]) => naturalCompare(a, b))) {
    const ys = [...p.ys].sort(naturalCompare);
    const panelCells: Cell[] = [];
    for (const y of ys) {
      for (const x of xs) {
        const g = groups.get(`${pk}\u0000${x}\u0000${y}`);
        const speedup = g && g.values.length > 0 ? round(geomean(g.values)) : null;
        panelCells.push({ panel: p.panel, spec_method: p.method, x, y, speedup, label: speedup === null ? '—' : `${speedup.toFixed(2)}×`, is_best: false, dark: false, runs: g?.values.length ?? 0 });
      }
    }
    const best = panelCells.reduce<Cell | null>((b, c) => (c.speedup !== null && (b === null || (b.speedup ?? 0) < c.speedup) ? c : b), null);
    if (best) best.is_best = true;
    for (const cell of panelCells) cells.push(cell);
  }
  return cells;
}

function geomean(values: readonly number[]): number {
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}

export const SPEEDUP_HEATMAP: ChartDef = {
  id: 'speedup-heatmap',
  title: 'Speedup heatmap',
  note: 'Cells are candidate/baseline speedups (> 1 = better; geometric mean of repeats); the outlined cell is the best of its panel; grey cells with — were not measured.',
  input: 'comparison',
  build: speedupHeatmap,
};
