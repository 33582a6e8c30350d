import { distinct, num, text } from './fields.js';
import { crowdedReason, LEGIBLE } from './legibility.js';
import { CATEGORY_COLORS, finish } from './theme.js';
import { shortPathNames } from './path-names.js';
import { type RunBand, runBands, type ServedLine } from './run-bands.js';
import { arraySource, binTimelineRows, MAX_POINTS, parseSeconds } from './time-bins.js';
import { chartOk, chartSkip, type ChartDef, type ChartOptions, type ChartResult, type Row } from './types.js';

/**
 * The panels of the timeline, each drawn only when some line has its columns. `axis` is the title
 * in lines: a rotated title longer than its panel is tall pushes the panel down (a blank band).
 */
const PANELS = [
  { title: 'generation throughput (tok/s)', axis: ['generation', 'throughput (tok/s)'], columns: ['gen_throughput'], format: ',.0f' },
  { title: 'requests', axis: ['requests'], columns: ['running', 'waiting'], format: 'd' },
  { title: 'KV-cache usage', axis: ['KV-cache usage'], columns: ['kv_cache_usage'], format: '.0%' },
  { title: 'spec acceptance rate', axis: ['spec acceptance', 'rate'], columns: ['spec_acceptance_rate'], format: '.0%' },
] as const;

/**
 * Server stats over time, one panel per quantity. Time is seconds since each log's first stats
 * line, computed here from the timestamp text so the figure never depends on the time zone.
 */
export function serverTimeline(rows: readonly Row[], options: ChartOptions): ChartResult {
  const start = new Map<string, number>();
  const served: ServedLine[] = [];
  // a long log as MAX_POINTS time bins (a report passes rows binned already: then this keeps them)
  const points = binTimelineRows(arraySource(rows)).flatMap((r, i) => {
    const file = text(r.source_file) ?? '';
    const t = parseSeconds(text(r.time)) ?? i;
    if (!start.has(file)) start.set(file, t);
    const elapsed = t - (start.get(file) ?? t);
    served.push({ t: elapsed, runId: text(r.run_id) });
    const more = (num(r.stats_lines) ?? 1) - 1;
    const line = `${file}:${String(r.source_line)}${more > 0 ? ` (+${more} more)` : ''}`;
    return PANELS.flatMap((p) =>
      p.columns.flatMap((c) => {
        const v = num(r[c]);
        return v === null ? [] : [{ panel: p.title, series: c, log: file, t: elapsed, value: v, line }];
      }),
    );
  });
  if (points.length === 0) return chartSkip('no server stats lines');
  points.sort((a, b) => (a.log < b.log ? -1 : a.log > b.log ? 1 : a.t - b.t || (a.series < b.series ? -1 : a.series > b.series ? 1 : 0)));
  const files = distinct(points as unknown as Row[], 'log');
  // logs are told apart by their dash, named in a legend of at most 30 by their paths' last parts
  const crowded = files.length > LEGIBLE.series ? crowdedReason('server-timeline', options, files.length, 'logs', LEGIBLE.series, `source_file=${files[0] ?? ''}`) : undefined;
  const names = shortPathNames(files);
  for (const pt of points) pt.log = names.get(pt.log) ?? pt.log;
  const logs = files.map((f) => names.get(f) ?? f);
  // the runs the log served, shaded behind its lines (one log: several would overlap on one time axis)
  const bands = logs.length === 1 ? runBands(served, options.runs ?? []) : [];
  const x = { field: 't', type: 'quantitative', title: 'time since first stats line (s)' };
  const panels = PANELS.filter((p) => points.some((pt) => pt.panel === p.title)).map((p, k) => {
    const transform = [{ filter: { field: 'panel', equal: p.title } }];
    const size = { width: 560, height: 110 };
    const line = {
      // a stats line reports the interval it ends: its value holds from the line before it up to it
      mark: { type: 'line', interpolate: 'step-before' },
      encoding: {
        x,
        y: { field: 'value', type: 'quantitative', title: p.axis.length === 1 ? p.axis[0] : [...p.axis], axis: { format: p.format } },
        color: { field: 'series', type: 'nominal', title: 'series', scale: { range: CATEGORY_COLORS }, legend: p.columns.length > 1 ? { orient: 'right' } : null },
        ...(logs.length > 1 ? { strokeDash: { field: 'log', type: 'nominal', title: 'log', sort: logs } } : {}),
        tooltip: [
          { field: 'series', title: 'series' },
          { field: 't', title: 'seconds' },
          { field: 'value', title: 'value', format: p.format },
          { field: 'line', title: 'source' },
        ],
      },
    };
    return bands.length === 0 ? { transform, ...size, ...line } : { ...size, layer: [...bandLayers(bands, k === 0), { transform, ...line }] };
  });
  // one time axis for every panel: a moment is at one place in each
  const body = { data: { values: points }, vconcat: panels, resolve: { scale: { color: 'independent', x: 'shared' } } };
  return chartOk(finish(body, options, 'Server timeline', logs), crowded);
}

/** Grey stretches behind a panel's lines, one per run, labelled with the run's load in the top panel. */
function bandLayers(bands: readonly RunBand[], labelled: boolean): object[] {
  const tooltip = [
    { field: 'run', title: 'run' },
    { field: 'load', title: 'load' },
    { field: 't0', title: 'from (s)', format: ',.0f' },
    { field: 't1', title: 'to (s)', format: ',.0f' },
  ];
  const rect = {
    data: { values: bands },
    mark: { type: 'rect', color: '#888' },
    encoding: { x: { field: 't0', type: 'quantitative' }, x2: { field: 't1' }, opacity: { condition: { test: 'datum.shade === 1', value: 0.2 }, value: 0.1 }, tooltip },
  };
  if (!labelled) return [rect];
  const label = { data: { values: bands }, mark: { type: 'text', baseline: 'bottom', dy: -3, fontSize: 10, color: '#444' }, encoding: { x: { field: 'mid', type: 'quantitative' }, y: { value: 0 }, text: { field: 'load' }, tooltip } };
  return [rect, label];
}

export const SERVER_TIMELINE: ChartDef = { id: 'server-timeline', title: 'Server timeline', note: `Periodic server stats lines over time, one line style per log; a single log's runs shaded behind its lines, labelled with their load. A log with more than ${MAX_POINTS.toLocaleString('en-US')} stats lines is drawn as ${MAX_POINTS.toLocaleString('en-US')} time bins, each at the mean of its lines (the timeline table has every line).`, input: 'timeline', build: serverTimeline };
