import type { TopLevelSpec } from 'vega-lite';
import type { Config } from 'vega-lite';
import { textWidth } from '../render/text-width.js';
import type { ChartOptions } from './types.js';

/** A legend's room for a label (px); a chart whose labels need more gets up to LEGEND_LABEL_MAX (legendLabelLimit). */
const LEGEND_LABEL_LIMIT = 260;
const LEGEND_LABEL_MAX = 480;

/** Light theme shared by every chart: readable on a white page, no chart junk. */
export const BASE_CONFIG: Config = {
  background: 'white',
  font: 'Helvetica, Arial, sans-serif',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#e6e6e6', domainColor: '#888', tickColor: '#888' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: LEGEND_LABEL_LIMIT },
  header: { labelFontSize: 12, titleFontSize: 12, labelLimit: 260 },
  title: { fontSize: 15, subtitleFontSize: 11, subtitleColor: '#555', anchor: 'start', offset: 10 },
};

/** Colour-blind-safe categorical palette (Okabe–Ito). */
export const CATEGORY_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

/**
 * Wraps a chart body with schema, title/caption and theme. `legendLabels`: the names its legends
 * show, so a legend is as wide as its longest name (up to LEGEND_LABEL_MAX) and Vega does not cut
 * off their ends, where two configurations' names often differ (`… backend=vllm` and `… dataset=random`).
 */
export function finish(body: Record<string, unknown>, options: ChartOptions, defaultTitle: string, legendLabels: readonly string[] = []): TopLevelSpec {
  const title = options.title ?? defaultTitle;
  const labelLimit = legendLabelLimit(legendLabels);
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.caption ? { text: title, subtitle: options.caption } : { text: title },
    ...body,
    config: labelLimit === LEGEND_LABEL_LIMIT ? BASE_CONFIG : { ...BASE_CONFIG, legend: { ...BASE_CONFIG.legend, labelLimit } },
  };
  return spec as TopLevelSpec;
}

/** The legend's label room for these names: the widest one's (DejaVu Sans at the legend's size, a few px spare), between the default and the maximum. */
export function legendLabelLimit(labels: readonly string[]): number {
  const fontSize = BASE_CONFIG.legend?.labelFontSize;
  const size = typeof fontSize === 'number' ? fontSize : 11;
  let widest = 0;
  for (const label of new Set(labels)) widest = Math.max(widest, textWidth(label, size));
  return Math.min(LEGEND_LABEL_MAX, Math.max(LEGEND_LABEL_LIMIT, Math.ceil(widest) + 4));
}
