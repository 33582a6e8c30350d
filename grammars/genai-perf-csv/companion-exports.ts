import { counted } from '../../src/core/counted.js';
import { firstFileLine } from '../_shared/interleaved-line.js';

/**
 * CSV files AIPerf writes beside `profile_export_aiperf.csv` that hold metrics of the same run (or
 * of the runs of a sweep), not a run of their own, by their first line (ai-dynamo/aiperf
 * `src/aiperf/exporters/`, `server_metrics/csv_exporter.py`, `exporters/aggregate/`, 2025–2026).
 */
interface CompanionKind {
  readonly first: RegExp;
  describe(lines: readonly string[]): string;
}

const KINDS: readonly CompanionKind[] = [
  {
    // `profile_export_aiperf_timeslices.csv`: tidy rows `<slice>,<metric>,<unit>,<stat>,<value>`
    first: /^\s*Timeslice,Metric,Unit,Stat,Value\s*$/,
    describe: (lines) => `AIPerf time-slice export (${counted(firstCells(lines).size, 'slice')} of the run in profile_export_aiperf.csv)`,
  },
  {
    // `profile_export_aiperf_archetypes.csv`: the same tidy rows per request archetype (`image-only`)
    first: /^\s*Archetype,Metric,Unit,Stat,Value\s*$/,
    describe: (lines) => `AIPerf per-archetype export (${counted(firstCells(lines).size, 'archetype')} of the run in profile_export_aiperf.csv)`,
  },
  {
    // `profile_export_aiperf_steady_state.csv`: window metadata rows, then the export's own blocks
    first: /^\s*# Steady-State Window Metadata\s*$/,
    describe: () => 'AIPerf steady-state window export (the run in profile_export_aiperf.csv over its steady-state window)',
  },
  {
    // `server_metrics_export.csv`: `#` metadata lines, then one block per Prometheus metric type
    first: /^\s*# AIPerf Server Metrics Export\b/,
    describe: () => 'AIPerf server metrics export (Prometheus summaries of the serving endpoints during the run)',
  },
  {
    // `profile_export_aiperf_sweep.csv`: parameter columns, then `<metric>_mean,_std,_min,_max,_cv` per metric
    first: /(?:^|,)(\w+)_mean,\1_std,\1_min,\1_max,\1_cv(?:,|\s*$)/,
    describe: () => "AIPerf sweep aggregate (each run's profile_export_aiperf.csv under profile_runs/ is read as a run)",
  },
];

/** Does this first line start one of those files? */
export function isCompanionFirstLine(first: string): boolean {
  return KINDS.some((k) => k.first.test(first));
}

/** What the file is, for its `table/ignored-block` info; null when it is none of those. */
export function companionCsv(lines: readonly string[]): string | null {
  const first = firstFileLine(lines);
  return KINDS.find((k) => k.first.test(first))?.describe(lines.slice(lines.indexOf(first))) ?? null;
}

/** The distinct first cells of the rows below the header (slice indexes, archetype names). */
function firstCells(lines: readonly string[]): Set<string> {
  return new Set(lines.slice(1).flatMap((l) => (l.trim() === '' ? [] : [l.split(',', 1)[0] as string])));
}
