import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';
import { resultGrammar } from '../_shared/result-lines/index.js';

/** Line kinds of `vllm bench latency` / `benchmark_latency.py` stdout (vllm/benchmarks/latency.py). */
const AVG = /^\s*Avg latency: /;
/** `Avg latency: 1.2345 seconds`: a result's first line. */
const AvgLatency = lineToken('AvgLatency', AVG);
/** `Std latency: 0.01 seconds` (since 2025). */
const StdLatency = lineToken('StdLatency', /^\s*Std latency: /);
/** `10% percentile latency: 1.2 seconds`, for 10, 25, 50, 75, 90 and 99. */
const PercentileLatency = lineToken('PercentileLatency', /^\s*\d+(?:\.\d+)?% percentile latency: /);

export const latencyGrammar = resultGrammar(
  { head: AvgLatency, stats: [StdLatency, PercentileLatency], other: lineToken('OtherLine', /^/), newline: newlineToken() },
  (line) => AVG.test(line),
);
