import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/** Line kinds of `vllm bench latency` / `benchmark_latency.py` stdout (vllm/benchmarks/latency.py). */
const AVG = /^\s*Avg latency: /;
/** `Avg latency: 1.2345 seconds`: a result's first line. */
export const AvgLatency = lineToken('AvgLatency', AVG);
/** Where the parse of a whole source starts a result too. */
export const startsResult = (line: string): boolean => AVG.test(line);
/** `Std latency: 0.01 seconds` (since 2025). */
export const StdLatency = lineToken('StdLatency', /^\s*Std latency: /);
/** `10% percentile latency: 1.2 seconds`, for 10, 25, 50, 75, 90 and 99. */
export const PercentileLatency = lineToken('PercentileLatency', /^\s*\d+(?:\.\d+)?% percentile latency: /);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [AvgLatency, StdLatency, PercentileLatency, OtherLine, Newline];

export const latencyLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
