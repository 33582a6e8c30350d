import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';
import { resultGrammar } from '../_shared/result-lines/index.js';

/**
 * Line kinds of `vllm bench startup` stdout (vllm/benchmarks/startup.py): a title between two
 * rules, then a `COLD STARTUP:` and a `WARM STARTUP:` section, each with its averages and, per
 * metric, a percentile header and one line per percentage.
 */
const TITLE = /^\s*STARTUP TIME BENCHMARK RESULTS\s*$/;
/** `STARTUP TIME BENCHMARK RESULTS`: a result's first line. */
const ResultTitle = lineToken('ResultTitle', TITLE);
/** `COLD STARTUP:` / `WARM STARTUP:`: the phase of the lines below it. */
const PhaseHeader = lineToken('PhaseHeader', /^\s*(?:COLD|WARM) STARTUP:\s*$/);
/** `Avg startup time: 41.27 seconds` (2026), `Avg total startup time: …` and `Avg compilation time:   …` (2025). */
const AvgTime = lineToken('AvgTime', /^\s*Avg [a-z][a-z ]* time:/);
/** `Startup time percentiles:`, `Compilation time percentiles:`, `Encoder compilation time percentiles:`. */
const PercentilesHeader = lineToken('PercentilesHeader', /^\s*[A-Z][a-z ]* time percentiles:\s*$/);
/** `  10%: 40.11 seconds`, for 10, 25, 50, 75, 90 and 99. */
const Percentile = lineToken('Percentile', /^\s*\d+(?:\.\d+)?%: /);
/** The `=` rule closing the result (60 of them). */
const Rule = lineToken('Rule', /^\s*={10,}\s*$/);

export const startupGrammar = resultGrammar(
  { head: ResultTitle, stats: [PhaseHeader, AvgTime, PercentilesHeader, Percentile, Rule], other: lineToken('OtherLine', /^/), newline: newlineToken() },
  (line) => TITLE.test(line),
);
