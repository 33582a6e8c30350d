import { distinct, metricOf, text } from './fields.js';
import type { ChartOptions, Row } from './types.js';

/**
 * How much one chart can show and still be read. A campaign of many models, parallelisms and
 * methods has thousands of configurations: drawn in one chart they are lines no legend can name
 * (Vega's names 30 and cuts the rest), panels wider than any page, and a ladder of 10,000 bars
 * 200,000 pixels tall whose PNG alone took 5 GB. Past these a chart is crowded (crowdedReason):
 * a report leaves it out, and `benchlens plot --filter` draws a part of it.
 */
export const LEGIBLE = {
  /** Lines or point colours in one chart: as many as Vega's legend names (its symbolLimit). */
  series: 30,
  /** Heatmap panels. */
  panels: 24,
  /** Ladder bars, every panel's together (22 px each: some 3,500 px tall). */
  bars: 160,
} as const;

/** Why a chart is too crowded to read, and the fewest legible parts it takes (its count ÷ the limit). */
export interface Crowding {
  readonly reason: string;
  readonly minParts: number;
}

/**
 * Why a chart is too crowded to read: `count` things of a kind, more than `limit`, and how to draw
 * a part. A report draws such a chart in parts, or leaves it out with this reason; `benchlens
 * plot`, asked for it, draws it and says so.
 */
export function crowdedReason(chart: string, options: ChartOptions, count: number, what: string, limit: number, split: string): Crowding {
  // the part is drawn as this chart was: same axis, same metric (said when it is not the default)
  const metric = options.metric === undefined || options.metric === metricOf({}) ? '' : ` --metric ${options.metric}`;
  const same = `${options.y === undefined ? '' : ` --y ${options.y}`}${metric}`;
  // every line, panel or bar is in some part, and a part holds at most `limit` of them
  return { reason: `${count.toLocaleString('en-US')} ${what}, too many to read in one chart (at most ${limit}); draw a part of them with benchlens plot --chart ${chart}${same} --filter ${split}`, minParts: Math.ceil(count / limit) };
}

/** Columns a campaign is best split by, broadest first. */
export const SPLIT_ORDER = ['model', 'dataset', 'engine', 'tp', 'quantization', 'input_len', 'output_len', 'spec_method', 'num_spec_tokens', 'max_concurrency'];

/**
 * A `--filter` that draws a legible part: the broadest of the `varying` columns at its first value,
 * then the next, until the rows left have at most `limit` distinct `keyOf` (lines, panels, bars).
 */
export function filterHint(rows: readonly Row[], varying: readonly string[], keyOf: (row: Row) => string, limit: number): string {
  const terms: string[] = [];
  let part = rows;
  for (const column of SPLIT_ORDER) {
    if (new Set(part.map(keyOf)).size <= limit) break;
    if (!varying.includes(column)) continue;
    const value = distinct(part, column)[0];
    if (value === undefined) continue;
    terms.push(`${column}=${value}`);
    part = part.filter((r) => text(r[column]) === value);
  }
  return terms.length === 0 ? 'column=value' : terms.join(',');
}
