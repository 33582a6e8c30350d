import { num } from './fields.js';
import { naturalOrder } from '../core/natural-order.js';
import { crowdedReason, filterHint, LEGIBLE } from './legibility.js';
import { combineRepeats } from './repeats.js';
import { seriesNamer, varyingKeys } from './series.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** Acceptance rate at each draft position: where the draft stops agreeing with the target. */
export function acceptancePosition(rows: readonly Row[], options: ChartOptions): ChartResult {
  const withArrays = rows.filter((r) => Array.isArray(r.spec_per_position_acceptance));
  if (withArrays.length === 0) return chartSkip('no runs with spec_per_position_acceptance');
  const keys = varyingKeys(withArrays);
  const seriesOf = seriesNamer(withArrays, keys, options.color);
  const lineOf = (r: Row): string => {
    const conc = num(r.max_concurrency);
    return conc === null || keys.includes('max_concurrency') ? seriesOf(r) : `${seriesOf(r)} @${conc}`;
  };
  const measured = withArrays.flatMap((r) => {
    const arr = r.spec_per_position_acceptance as readonly number[];
    const name = lineOf(r);
    const source = `${String(r.source_file)}:${String(r.source_line)}`;
    return arr.flatMap((a, i) => (Number.isFinite(a) ? [{ key: `${name}\u0000${i + 1}`, values: [a], series: name, position: i + 1, source }] : []));
  });
  const lines = new Set(measured.map((m) => m.series)).size;
  const crowded = lines > LEGIBLE.series ? crowdedReason('acceptance-position', options, lines, 'configurations', LEGIBLE.series, filterHint(withArrays, [...keys, 'max_concurrency'], lineOf, LEGIBLE.series)) : undefined;
  // repeats of a configuration: one line, at their median (repeats.ts)
  const points = combineRepeats(measured).map((c) => ({ series: c.first.series, position: c.first.position, acceptance: c.median[0] as number, ...(c.runs > 1 ? { runs: c.runs } : {}), source: c.source }));
  points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.position - b.position));
  const body = {
    data: { values: points },
    width: 420,
    height: 280,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'position', type: 'ordinal', title: 'draft position', axis: { labelAngle: 0 } },
      y: { field: 'acceptance', type: 'quantitative', title: 'acceptance rate', scale: { domain: [0, 1] }, axis: { format: '%' } },
      color: { field: 'series', type: 'nominal', title: 'configuration', sort: naturalOrder(points.map((p) => p.series)), scale: { range: CATEGORY_COLORS } },
      tooltip: [
        { field: 'series', title: 'configuration' },
        { field: 'position', title: 'position' },
        { field: 'acceptance', title: 'acceptance', format: '.1%' },
        ...(points.some((p) => p.runs !== undefined) ? [{ field: 'runs', title: 'repeats (median shown)' }] : []),
        { field: 'source', title: 'source' },
      ],
    },
  };
  return chartOk(finish(body, options, 'Acceptance rate per draft position'), crowded);
}

export const ACCEPTANCE_POSITION: ChartDef = { id: 'acceptance-position', title: 'Acceptance per draft position', note: 'Share of drafted tokens accepted at each draft position (the median of a configuration’s repeats).', input: 'runs', build: acceptancePosition };
