import { naturalOrder } from '../core/natural-order.js';
import { columnTitle } from './fields.js';
import { listLines } from './list-lines.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** The metric a multi-turn run is drawn by when none is asked for, or the one asked has no per-turn values. */
const DEFAULT_TURN_METRIC = 'mean_ttft_ms';

/** The `per_turn_<metric>` list a chart of these runs draws: `--y`'s (as metric-lines reads it) when runs have it. */
export function turnColumn(rows: readonly Row[], options: ChartOptions): string {
  const asked = options.y === undefined ? undefined : `per_turn_${options.y.replace(/^per_turn_/, '')}`;
  return asked !== undefined && rows.some((r) => Array.isArray(r[asked])) ? asked : `per_turn_${DEFAULT_TURN_METRIC}`;
}

/** Whether any run measured its conversations turn by turn (the Rust `vllm-bench --multi-turn`'s `per_turn_*` lists). */
export function hasTurns(rows: readonly Row[]): boolean {
  return rows.some((r) => Array.isArray(r[`per_turn_${DEFAULT_TURN_METRIC}`]));
}

/**
 * A metric of multi-turn runs at each turn of their conversations: how the time to first token
 * grows with the context a conversation carries, or stays flat where the prefix cache holds it.
 */
export function turnLines(rows: readonly Row[], options: ChartOptions): ChartResult {
  const column = turnColumn(rows, options);
  const metric = column.slice('per_turn_'.length);
  const withTurns = rows.filter((r) => Array.isArray(r[column]));
  if (withTurns.length === 0) return chartSkip(`no multi-turn runs with ${column}`);
  const { points, crowded } = listLines(withTurns, column, 'turn-lines', options);
  const body = {
    data: { values: points.map(({ series, place, value, runs, source }) => ({ series, turn: place, value, ...(runs === undefined ? {} : { runs }), source })) },
    width: 420,
    height: 280,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'turn', type: 'ordinal', title: 'conversation turn', axis: { labelAngle: 0 } },
      // a rate per turn (the prefix cache's hit rate) is a fraction: drawn in %, from 0 to 100 %
      y: { field: 'value', type: 'quantitative', title: columnTitle(metric), ...(isFraction(metric) ? { scale: { domain: [0, 1] }, axis: { format: '%' } } : {}) },
      color: { field: 'series', type: 'nominal', title: 'configuration', sort: naturalOrder(points.map((p) => p.series)), scale: { range: CATEGORY_COLORS } },
      tooltip: [
        { field: 'series', title: 'configuration' },
        { field: 'turn', title: 'turn' },
        { field: 'value', title: metric, format: isFraction(metric) ? '.1%' : ',.2f' },
        ...(points.some((p) => p.runs !== undefined) ? [{ field: 'runs', title: 'repeats (median shown)' }] : []),
        { field: 'source', title: 'source' },
      ],
    },
  };
  return chartOk(finish(body, options, `${columnTitle(metric)} per conversation turn`, points.map((p) => p.series)), crowded);
}

/** Per-turn values that are fractions 0..1 (schema.md): a cache hit rate, an acceptance rate. */
function isFraction(metric: string): boolean {
  return metric.endsWith('_hit_rate') || metric.endsWith('acceptance_rate');
}

export const TURN_LINES: ChartDef = {
  id: 'turn-lines',
  title: 'Per conversation turn',
  note: 'A metric of multi-turn runs at each turn of their conversations (the median of a configuration’s repeats): how it grows with the context a conversation carries.',
  input: 'runs',
  build: turnLines,
};
