import { metricOf, num, text } from './fields.js';
import { naturalOrder } from '../core/natural-order.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/** Mean acceptance length against measured speedup: does accepting more tokens pay off? */
export function acceptanceSpeedup(rows: readonly Row[], options: ChartOptions): ChartResult {
  const metric = metricOf(options);
  const field = `speedup_${metric}`;
  const points = rows.flatMap((r) => {
    const x = num(r[options.x ?? 'spec_acceptance_length']);
    const y = num(r[field]);
    if (x === null || y === null || (r.pair_status !== undefined && text(r.pair_status) !== 'ok')) return [];
    return [{ method: text(r[options.color ?? 'spec_method']) ?? 'none', k: num(r.num_spec_tokens), concurrency: num(r.max_concurrency), x, speedup: y, source: `${String(r.source_file)}:${String(r.source_line)}` }];
  });
  if (points.length === 0) return chartSkip(`no runs with both spec_acceptance_length and ${field}`);
  points.sort((a, b) => a.x - b.x || a.speedup - b.speedup || (a.method < b.method ? -1 : 1));
  const body = {
    width: 420,
    height: 300,
    layer: [
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          x: { field: 'x', type: 'quantitative', title: 'mean acceptance length (tokens/step)', scale: { zero: false } },
          y: { field: 'speedup', type: 'quantitative', title: `speedup (${metric})`, scale: { zero: false } },
          color: { field: 'method', type: 'nominal', title: 'method', sort: naturalOrder(points.map((p) => p.method)), scale: { range: CATEGORY_COLORS } },
          tooltip: [
            { field: 'method', title: 'method' },
            { field: 'k', title: 'num_spec_tokens' },
            { field: 'concurrency', title: 'max_concurrency' },
            { field: 'x', title: 'acceptance length', format: '.2f' },
            { field: 'speedup', title: field, format: '.3f' },
            { field: 'source', title: 'source' },
          ],
        },
      },
      { data: { values: [{ y: 1 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { field: 'y', type: 'quantitative' } } },
      ...(boundsSpeedup(options, metric) ? freeDraftingBound(points) : []),
    ],
  };
  return chartOk(finish(body, options, 'Acceptance length vs speedup', points.map((p) => p.method)));
}

/**
 * Whether acceptance length bounds the speedup drawn: a target forward pass emits that many tokens
 * a request, and verifying K+1 tokens costs at least one decode step, so no decode-side speedup
 * (throughput, TPOT, ITL, E2EL) exceeds it; time to first token is prefill, which drafting does
 * not touch.
 */
function boundsSpeedup(options: ChartOptions, metric: string): boolean {
  return (options.x === undefined || options.x === 'spec_acceptance_length') && !metric.includes('ttft');
}

/** The line speedup = acceptance length over the points' lengths, named at its end: what free drafting would give. */
function freeDraftingBound(points: readonly { x: number }[]): object[] {
  const xs = points.map((p) => p.x);
  const ends = [Math.min(...xs), Math.max(...xs)].map((x) => ({ x, bound: x, note: 'speedup = acceptance length: drafting free, verification as cheap as a decode step' }));
  const encoding = { x: { field: 'x', type: 'quantitative' }, y: { field: 'bound', type: 'quantitative' }, tooltip: [{ field: 'note', title: 'upper bound' }] };
  return [
    { data: { values: ends }, mark: { type: 'line', strokeDash: [2, 3], color: '#999' }, encoding },
    { data: { values: ends.slice(1) }, mark: { type: 'text', text: 'free drafting', align: 'right', baseline: 'bottom', dy: -4, fontSize: 10, color: '#777' }, encoding },
  ];
}

export const ACCEPTANCE_SPEEDUP: ChartDef = {
  id: 'acceptance-speedup',
  title: 'Acceptance length vs speedup',
  note: 'Mean accepted tokens per step against the measured speedup; the dashed line is break-even, the dotted one the most acceptance can give (speedup = acceptance length: drafting free, verifying K+1 tokens as cheap as one decode step).',
  input: 'comparison',
  build: acceptanceSpeedup,
};
