import { compareRuns, DEFAULT_METRICS } from '../analyze/compare.js';
import { presentMeasuredMetrics } from '../analyze/headline-metric.js';
import { matchesFilter, parseFilter, type RowFilter } from '../analyze/filter.js';
import { DiagnosticCollector, type Diagnostic, sortDiagnostics } from '../core/diagnostic.js';
import type { FieldValue } from '../core/types.js';
import { scan as scanFolders, type ScanOptions } from '../pipeline/scan-parallel.js';
import { type ScanProgress, type ScanResult, takeRecords } from '../pipeline/scan-result.js';
import { buildRuns, type BuildRunsOptions } from '../normalize/build-runs.js';
import { type TimelineTable, timelineTable } from '../normalize/timeline-table.js';
import type { FailedConfiguration } from '../normalize/failed-configurations.js';
import type { FileReport } from '../pipeline/process-file.js';

type Row = Record<string, FieldValue>;

/** Everything a report or a figure is drawn from. */
export interface ReportTables {
  readonly files: readonly FileReport[];
  readonly runs: readonly Row[];
  readonly comparison: readonly Row[];
  /** Built a row at a time when read: a long log has hundreds of thousands of stats lines. */
  readonly timeline: TimelineTable;
  readonly failed: readonly FailedConfiguration[];
  readonly diagnostics: readonly Diagnostic[];
  /** The baseline filter used, and whether it was picked by default rather than given. */
  readonly baseline: RowFilter | null;
  readonly baselineDefaulted: boolean;
  /** What the off-clock warnings offer, once each: an offset (ms), or null for those that offer none (buildRuns). */
  readonly clockOffsets: readonly (number | null)[];
  /** The runs' configuration columns (buildRuns): what the comparison matches on, and the charts tell configurations apart by. */
  readonly configColumns: readonly string[];
}

/** Default baselines, in order: runs explicitly without speculation, then runs with no method recorded. */
const DEFAULT_BASELINES = ['spec_method=none', 'spec_method=null'];

export interface LoadTablesOptions {
  /**
   * Called between the phases of a large job (scan, run rows, comparison): the command line
   * collects garbage there, so one phase's garbage is not still held when the next one peaks
   * (peak RSS, issue 7).
   */
  readonly pause?: () => void;
  /** Told how the scan goes (the command line's progress bar). */
  readonly progress?: (p: ScanProgress) => void;
  /** How the runs table is built: `--path-template`, `--clock-offset`. */
  readonly runs?: Pick<BuildRunsOptions, 'pathTemplate' | 'clockOffsetMs'>;
  /** A metric to compare besides the default ones (`report --metric`). */
  readonly metric?: string;
}

/**
 * Scans, builds the runs table and compares against the baseline. Without `--baseline`, picks
 * `spec_method=none` (else `spec_method=null`) when such runs exist next to others, else none.
 */
export async function loadTables(paths: readonly string[], options: ScanOptions, baselineText: string | undefined, phases: LoadTablesOptions = {}): Promise<ReportTables> {
  let scanned: ScanResult | null = await scanFolders(paths, options, phases.progress);
  const { files, diagnostics } = scanned;
  // the parsed records are let go as the run rows are built (buildRuns): a report of tens of
  // thousands of runs would otherwise hold both; the stats lines stay, for the timeline
  const statsLines = scanned.records.filter((r) => r.record.kind === 'timeline');
  const records = takeRecords(scanned);
  scanned = null;
  phases.pause?.();
  const sink = new DiagnosticCollector();
  const built = buildRuns(records, sink, { ...phases.runs, ...(phases.pause ? { pause: phases.pause } : {}) });
  phases.pause?.();
  const timelineSink = new DiagnosticCollector();
  const timeline = timelineTable(statsLines, timelineSink, built.served);
  const runs = built.rows;
  const given = baselineText === undefined ? null : parseFilter(baselineText);
  const fallback = given === null ? DEFAULT_BASELINES.map(parseFilter).find((f) => runs.some((r) => matchesFilter(r, f)) && runs.some((r) => !matchesFilter(r, f))) : undefined;
  const defaulted = fallback !== undefined;
  const baseline = given ?? fallback ?? null;
  const metrics = phases.metric === undefined ? undefined : [...new Set([...DEFAULT_METRICS, ...presentMeasuredMetrics(runs), phases.metric])];
  const comparison =
    baseline === null ? [] : compareRuns(runs, { baseline, configColumns: built.configColumns, failedConfigurations: built.failedConfigurations, sink, ...(metrics ? { metrics } : {}) });
  return {
    files,
    runs,
    comparison,
    timeline,
    failed: built.failedConfigurations,
    diagnostics: sortDiagnostics([...diagnostics, ...sink.list(), ...timelineSink.list()]),
    baseline,
    baselineDefaulted: defaulted,
    clockOffsets: built.clockOffsets,
    configColumns: built.configColumns,
  };
}

