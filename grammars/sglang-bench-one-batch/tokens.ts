import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/** Line kinds of `python -m sglang.bench_one_batch` stdout (formats.md §5.2). */
const WARMUP = /^\s*Warmup \.\.\.\s*$/;
const BENCHMARK = /^\s*Benchmark \.\.\.\s*$/;
export const Warmup = lineToken('Warmup', WARMUP);
export const Benchmark = lineToken('Benchmark', BENCHMARK);
/** A section's first line: where the parse of a whole source starts a section too. */
export const startsSection = (line: string): boolean => WARMUP.test(line) || BENCHMARK.test(line);
export const Prefill = lineToken('Prefill', /^\s*Prefill\. latency: /);
/** `Decode 3. Batch size: 1, latency: …` (one per early step). */
export const DecodeStep = lineToken('DecodeStep', /^\s*Decode \d+\. /);
/** `Decode.  median latency: …`; older builds print `Decode.  latency: …` per step. */
export const DecodeMedian = lineToken('DecodeMedian', /^\s*Decode\.\s+(?:median )?latency: /);
export const Total = lineToken('Total', /^\s*Total\. latency: /);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [Warmup, Benchmark, Prefill, DecodeStep, DecodeMedian, Total, OtherLine, Newline];

export const oneBatchLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
