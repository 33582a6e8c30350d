import { naturalOrder } from '../core/natural-order.js';
import { listLines } from './list-lines.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** Acceptance rate at each draft position: where the draft stops agreeing with the target. */
export function acceptancePosition(rows: readonly Row[], options: ChartOptions): ChartResult {
  const withArrays = rows.filter((r) => Array.isArray(r.spec_per_position_acceptance));
  if (withArrays.length === 0) return chartSkip('no runs with spec_per_position_acceptance');
  const { points: lines, crowded } = listLines(withArrays, 'spec_per_position_acceptance', 'acceptance-position', options);
  const points = lines.map(({ series, place, value, runs, source }) => ({ series, position: place, acceptance: value, ...(runs === undefined ? {} : { runs }), source }));
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
  return chartOk(finish(body, options, 'Acceptance rate per draft position', points.map((p) => p.series)), crowded);
}

export const ACCEPTANCE_POSITION: ChartDef = { id: 'acceptance-position', title: 'Acceptance per draft position', note: 'Share of drafted tokens accepted at each draft position (the median of a configuration’s repeats).', input: 'runs', build: acceptancePosition };
