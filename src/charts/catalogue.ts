import { ACCEPTANCE_POSITION } from './acceptance-position.js';
import { ACCEPTANCE_SPEEDUP } from './acceptance-speedup.js';
import { LADDER } from './ladder.js';
import { METRIC_LINES } from './metric-lines.js';
import { PARETO } from './pareto.js';
import { SERVER_TIMELINE } from './server-timeline.js';
import { SPEEDUP_HEATMAP } from './speedup-heatmap.js';
import { SPEEDUP_LINES } from './speedup-lines.js';
import { TURN_LINES } from './turn-lines.js';
import type { ChartDef } from './types.js';

/** Chart ids, in the order a report shows them. */
export const CHART_IDS = [
  'speedup-heatmap',
  'speedup-lines',
  'metric-lines',
  'pareto',
  'ladder',
  'acceptance-position',
  'acceptance-speedup',
  'turn-lines',
  'server-timeline',
] as const;
export type ChartId = (typeof CHART_IDS)[number];

/** Every chart benchlens can draw, by id. */
export const CHARTS: Readonly<Record<ChartId, ChartDef>> = {
  'speedup-heatmap': SPEEDUP_HEATMAP,
  'speedup-lines': SPEEDUP_LINES,
  'metric-lines': METRIC_LINES,
  pareto: PARETO,
  ladder: LADDER,
  'acceptance-position': ACCEPTANCE_POSITION,
  'acceptance-speedup': ACCEPTANCE_SPEEDUP,
  'turn-lines': TURN_LINES,
  'server-timeline': SERVER_TIMELINE,
};

export function isChartId(value: string): value is ChartId {
  return (CHART_IDS as readonly string[]).includes(value);
}
