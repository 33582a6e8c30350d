import type { FieldValue } from '../core/types.js';
import type { FailedConfiguration } from '../normalize/failed-configurations.js';
import { loadAxis, loadAxisName } from './load-axis.js';
import { bestSpeedups } from './summary-best.js';
import { bestSpecTokens } from './summary-best-k.js';
import { breakEven } from './summary-break-even.js';
import type { Row } from './summary-groups.js';
import { optimizationLadder } from './summary-ladder.js';
import { slaTable } from './summary-sla.js';

/** One titled summary table. */
export interface SummaryTable {
  readonly id: string;
  readonly title: string;
  readonly rows: Record<string, FieldValue>[];
}

export interface AllSummariesOptions {
  readonly metric?: string;
  /** SLA limits by column (see parseSla); no SLA table without them. */
  readonly sla?: Readonly<Record<string, number>>;
  readonly failedConfigurations?: readonly FailedConfiguration[];
  /** The runs table's configuration columns (buildRuns): the break-even and SLA tables name configurations by those that vary. */
  readonly configColumns?: readonly string[];
}

/**
 * Every summary of `compare --summary`, in print order. `comparison` are compareRuns rows,
 * `runs` the runs table (the SLA table also covers the baseline).
 */
export function allSummaries(comparison: readonly Row[], runs: readonly Row[], options: AllSummariesOptions = {}): SummaryTable[] {
  const o = { ...(options.metric ? { metric: options.metric } : {}), ...(options.configColumns ? { configColumns: options.configColumns } : {}) };
  // the tables along the load say which load: a request-rate sweep is summarized along its rates
  const along = loadAxisName(loadAxis(comparison));
  const tables: SummaryTable[] = [
    { id: 'best-speedup', title: 'Best speedup per method and dataset', rows: bestSpeedups(comparison, o) },
    { id: 'break-even', title: `Break-even ${along} per method`, rows: breakEven(comparison, o) },
    { id: 'best-num-spec-tokens', title: `Best num_spec_tokens per ${along}`, rows: bestSpecTokens(comparison, o) },
    { id: 'ladder', title: 'Optimization ladder (labelled configurations)', rows: optimizationLadder(comparison, o) },
  ];
  if (options.sla) {
    // the limits in the title: a reader of the table (or of a blog post) sees what was met
    const limits = Object.entries(options.sla).map(([column, ms]) => `${column} ≤ ${ms} ms`).join(', ');
    tables.push({ id: 'sla', title: `Largest ${loadAxisName(loadAxis(runs))} meeting the SLA (${limits})`, rows: slaTable(runs, options.sla, loadAxis(runs), options.metric, options.configColumns) });
  }
  const failed = options.failedConfigurations ?? [];
  tables.push({
    id: 'failed-configurations',
    title: 'Failed configurations',
    rows: failed.map((f) => ({ source_file: f.source_file, ...f.config, error: `${f.exception}: ${f.message}`, error_at: f.error_at })),
  });
  return tables.map((t) => ({ ...t, rows: dropEmptyColumns(t.rows) }));
}

/** Drops columns that are null in every row (an unused label or pp column is noise in a table). */
export function dropEmptyColumns(rows: readonly Record<string, FieldValue>[]): Record<string, FieldValue>[] {
  const keep = new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== null && r[k] !== undefined)));
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
}
