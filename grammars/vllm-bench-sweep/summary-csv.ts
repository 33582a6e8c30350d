import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { pandasSummaryRuns } from '../_shared/csv/pandas-summary.js';
import { resultRun } from '../vllm-bench-result-json/index.js';

/**
 * The header pandas writes for the sweep's runs: an unnamed index column first, then the result
 * keys, the sweep's `run_number` and the overrides.
 */
export const SUMMARY_HEADER = /^,(?=.*(?:^|,)run_number(?:,|$))(?=.*(?:^|,)request_throughput(?:,|$))/;

/**
 * `summary.csv`: one row per measured run, the result object `run=N.json` holds as columns (cells
 * as pandas wrote them: a dict or list in Python's notation, `True`, empty for none). Each row is
 * read as its JSON is (vllm-bench-result-json's resultRun), labelled by the serve combination's
 * `_benchmark_name` when it has one; a run read from both is counted once (normalize/dedupe-runs).
 */
export function summaryRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  return pandasSummaryRuns(source, sink, {
    isResult: (obj) => RESULT_KEYS.some((k) => typeof obj[k] === 'number'),
    toRun: (obj, lines, at) => {
      const name = obj._benchmark_name;
      return resultRun(obj, lines, at, typeof name === 'string' && name !== '' ? name : null, sink);
    },
  });
}

/** A row that is a result has one of these (as a result JSON must: grammars/_shared/json/result-object.ts). */
const RESULT_KEYS = ['completed', 'request_throughput', 'duration'];
