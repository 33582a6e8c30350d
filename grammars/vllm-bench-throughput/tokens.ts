import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';
import { resultGrammar } from '../_shared/result-lines/index.js';

/** Line kinds of `vllm bench throughput` / `benchmark_throughput.py` stdout (vllm/benchmarks/throughput.py). */
const THROUGHPUT = /^\s*Throughput: \S+ requests\/s, /;
/** `Throughput: X requests/s, Y total tokens/s, Z output tokens/s` (before Sep 2024: `Y tokens/s`): a result's first line. */
const Throughput = lineToken('Throughput', THROUGHPUT);
/** `Total num prompt tokens:  N` / `Total num output tokens:  N` (since 2025). */
const TokenCount = lineToken('TokenCount', /^\s*Total num (?:prompt|output) tokens: /);

export const throughputGrammar = resultGrammar(
  { head: Throughput, stats: [TokenCount], other: lineToken('OtherLine', /^/), newline: newlineToken() },
  (line) => THROUGHPUT.test(line),
);
