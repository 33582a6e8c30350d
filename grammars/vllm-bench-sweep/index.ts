import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { signature } from '../../src/parse/signature.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { firstSummaryLine } from '../_shared/csv/pandas-summary.js';
import { firstFileLine } from '../_shared/interleaved-line.js';
import { failureRecords } from './failure.js';
import { SUMMARY_HEADER, summaryRuns } from './summary-csv.js';

const FAILURE = signature(['"serve_overrides"'], /"serve_overrides"\s*:/);

/**
 * `vllm bench sweep serve`'s own files beside its results (README): the failure records
 * `--continue-on-error` writes, where a result would have been (`SERVE--…-BENCH--…/run=0.failure.json`)
 * or, for a server that never served, beside the combinations (`SERVE-<name>-failure.json`), and the
 * experiment's `summary.csv`, every run in one table. The results (`run=0.json`) are
 * `vllm-bench-result-json`'s.
 */
export const grammar: Grammar = {
  id: 'vllm-bench-sweep',
  title: 'vLLM bench sweep failure records and summary.csv',
  readsLineText: true,
  detect({ head }) {
    if (looksLikeJson(head) && FAILURE.test(head) && head.includes('"error_type"')) return { score: 0.85, reason: 'JSON with serve_overrides and error_type' };
    if (SUMMARY_HEADER.test(firstSummaryLine(head))) return { score: 0.85, reason: 'pandas CSV with run_number and result columns' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return looksLikeJson(firstFileLine(source.lines)) ? failureRecords(source, sink) : summaryRuns(source, sink);
  },
};
