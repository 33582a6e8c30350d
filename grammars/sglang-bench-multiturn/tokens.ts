import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of what `benchmark/hicache/bench_multiturn.py` prints at the end of each run (a log
 * stamp already removed, text.ts): the `Performance metrics summary:` title, its indented
 * `  Label: value` lines, and with `--enable-round-barrier` the `Per-round metrics:` title and its
 * `  Round N: …` lines. Everything else (tqdm bars, `Barrier: round …` notes, failed requests) is
 * other text. Order matters: the first matching token wins.
 */

export const SUMMARY_TITLE = /^\s*Performance metrics summary:$/;
export const SummaryTitle = lineToken('SummaryTitle', SUMMARY_TITLE);
export const ROUNDS_TITLE = /^\s*Per-round metrics:$/;
export const RoundsTitle = lineToken('RoundsTitle', ROUNDS_TITLE);
/** `  Round 0: Average TTFT = 0.52s, Cache Hit Rate = 0.000000 (64 requests, 64 clients)`, or `No requests completed`. */
export const ROUND_LINE = /^\s*Round (\d+): (.+)$/;
export const RoundLine = lineToken('RoundLine', ROUND_LINE);
/** `  Average TTFT: 1.23`: indented (the script's two spaces), a label in words, a value. */
export const METRIC_LINE = /^\s+([A-Za-z][A-Za-z0-9 ()+]*?): (\S.*)$/;
export const MetricLine = lineToken('MetricLine', METRIC_LINE);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [SummaryTitle, RoundsTitle, RoundLine, MetricLine, OtherLine, Newline];

export const multiturnLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'onlyStart', ensureOptimizations: false, skipValidations: true }));
