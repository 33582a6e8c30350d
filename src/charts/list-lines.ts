import { num } from './fields.js';
import { crowdedReason, type Crowding, filterHint, LEGIBLE } from './legibility.js';
import { combineRepeats } from './repeats.js';
import { configurationKeys, seriesNamer } from './series.js';
import type { ChartOptions, Row } from './types.js';

/** A run's list value at one place of the list (1-based: a draft position, a conversation turn). */
export interface ListPoint {
  readonly series: string;
  readonly place: number;
  readonly value: number;
  /** Repeats of the configuration combined into this point (their median), when more than one. */
  readonly runs?: number;
  readonly source: string;
}

/**
 * The lines of a chart of a list column (`spec_per_position_acceptance`, `per_turn_mean_ttft_ms`):
 * one per configuration (and concurrency, when it is not what the configurations differ by), one
 * point per place, repeats at their median (repeats.ts); sorted by line, then place. `chart` names
 * the chart in the reason a crowded one gives.
 */
export function listLines(rows: readonly Row[], column: string, chart: string, options: ChartOptions): { points: ListPoint[]; crowded: Crowding | undefined } {
  const keys = configurationKeys(rows, options, undefined, ['max_concurrency']);
  const seriesOf = seriesNamer(rows, keys, options.color);
  const lineOf = (r: Row): string => {
    const conc = num(r.max_concurrency);
    return conc === null || keys.includes('max_concurrency') ? seriesOf(r) : `${seriesOf(r)} @${conc}`;
  };
  const measured = rows.flatMap((r) => {
    const list = r[column] as readonly number[];
    const name = lineOf(r);
    const source = `${String(r.source_file)}:${String(r.source_line)}`;
    return list.flatMap((v, i) => (Number.isFinite(v) ? [{ key: `${name}\u0000${i + 1}`, values: [v], series: name, place: i + 1, source }] : []));
  });
  const lines = new Set(measured.map((m) => m.series)).size;
  const crowded = lines > LEGIBLE.series ? crowdedReason(chart, options, lines, 'configurations', LEGIBLE.series, filterHint(rows, [...keys, 'max_concurrency'], lineOf, LEGIBLE.series)) : undefined;
  const points: ListPoint[] = combineRepeats(measured).map((c) => ({ series: c.first.series, place: c.first.place, value: c.median[0] as number, ...(c.runs > 1 ? { runs: c.runs } : {}), source: c.source }));
  points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.place - b.place));
  return { points, crowded };
}
