import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { pandasSummaryRuns } from '../_shared/csv/pandas-summary.js';
import { isStartupResult, startupRun } from './result.js';

/** The header pandas writes for a startup sweep's runs: an unnamed index column, then the result keys. */
export const SUMMARY_HEADER = /^,(?=(?:.*,)?avg_(?:cold|warm)_startup_time(?:,|$))/;

/**
 * `vllm bench sweep startup`'s `summary.csv`: one row per run of every combination, the object its
 * `run=N.json` holds as columns (pandas: a list or dict cell in Python's notation, `{10: 41.2, …}`,
 * an empty cell for none). Each row is read as that object is (startupRun), labelled by its
 * `_benchmark_name` when it has one.
 */
export function summaryRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  return pandasSummaryRuns(source, sink, { isResult: isStartupResult, toRun: (obj, lines, at) => startupRun(obj, lines, at, null, sink) });
}
