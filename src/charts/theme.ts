import type { TopLevelSpec } from 'vega-lite';
import type { Config } from 'vega-lite';
import type { ChartOptions } from './types.js';

/** Light theme shared by every chart: readable on a white page, no chart junk. */
export const BASE_CONFIG: Config = {
  background: 'white',
  font: 'Helvetica, Arial, sans-serif',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#e6e6e6', domainColor: '#888', tickColor: '#888' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  header: { labelFontSize: 12, titleFontSize: 12, labelLimit: 260 },
  title: { fontSize: 15, subtitleFontSize: 11, subtitleColor: '#555', anchor: 'start', offset: 10 },
};

/** Colour-blind-safe categorical palette (Okabe–Ito). */
export const CATEGORY_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

/** Wraps a chart body with schema, title/caption and theme. */
export function finish(body: Record<string, unknown>, options: ChartOptions, defaultTitle: string): TopLevelSpec {
  const title = options.title ?? defaultTitle;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.caption ? { text: title, subtitle: options.caption } : { text: title },
    ...body,
    config: BASE_CONFIG,
  };
  return spec as TopLevelSpec;
}
