import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/** Line kinds of `vllm bench throughput` / `benchmark_throughput.py` stdout (vllm/benchmarks/throughput.py). */
const THROUGHPUT = /^\s*Throughput: \S+ requests\/s, /;
/** `Throughput: X requests/s, Y total tokens/s, Z output tokens/s` (before Sep 2024: `Y tokens/s`): a result's first line. */
export const Throughput = lineToken('Throughput', THROUGHPUT);
/** Where the parse of a whole source starts a result too. */
export const startsResult = (line: string): boolean => THROUGHPUT.test(line);
/** `Total num prompt tokens:  N` / `Total num output tokens:  N` (since 2025). */
export const TokenCount = lineToken('TokenCount', /^\s*Total num (?:prompt|output) tokens: /);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [Throughput, TokenCount, OtherLine, Newline];

export const throughputLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
