import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { signature } from '../../src/parse/signature.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { firstSummaryLine } from '../_shared/csv/pandas-summary.js';
import { firstFileLine } from '../_shared/interleaved-line.js';
import { jsonRuns } from './json.js';
import { printedRuns } from './printed.js';
import { SUMMARY_HEADER, summaryRuns } from './summary-csv.js';

const TEXT = signature(['STARTUP TIME BENCHMARK RESULTS'], /^[^\S\n]*STARTUP TIME BENCHMARK RESULTS[^\S\n]*$/m);
/** The key with a number: in vLLM's PyTorch-format copy (`*.cold_startup.pytorch.json`) the name is a value. */
const JSON_KEY = signature(['avg_cold_startup_time', 'avg_warm_startup_time'], /"avg_(?:cold|warm)_startup_time"\s*:\s*-?\d/);
/** How vLLM's PyTorch-format copy starts (vllm-bench-result-json says what it is). */
const PYTORCH_COPY = /^\s*\[\s*\{\s*"benchmark"\s*:/;

/** `vllm bench startup`: its stdout, its `--output-json`, and `vllm bench sweep startup`'s runs and summaries (README). */
export const grammar: Grammar = {
  id: 'vllm-bench-startup',
  title: 'vLLM start-up time benchmark',
  readsLineText: true,
  detect({ head }) {
    if (looksLikeJson(head)) {
      if (JSON_KEY.test(head) && !PYTORCH_COPY.test(head)) return { score: 0.85, reason: 'JSON with avg_cold_startup_time' };
      return NOT_MINE;
    }
    const header = firstSummaryLine(head);
    if (header.startsWith(',') && head.includes('_startup_time') && SUMMARY_HEADER.test(header)) {
      return { score: 0.85, reason: 'pandas CSV with avg_cold_startup_time' };
    }
    if (TEXT.test(head)) return { score: 0.85, reason: 'STARTUP TIME BENCHMARK RESULTS title' };
    return NOT_MINE;
  },
  parse(source, sink) {
    const first = firstFileLine(source.lines);
    if (looksLikeJson(first)) return jsonRuns(source, sink);
    if (SUMMARY_HEADER.test(first)) return summaryRuns(source, sink);
    return printedRuns(source, sink);
  },
};
