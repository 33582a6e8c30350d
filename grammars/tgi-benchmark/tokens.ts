import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of the Markdown tables `text-generation-benchmark` prints on exit (formats.md §8).
 * Order matters: the first matching token wins.
 */
export const TableRule = lineToken('TableRule', /^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/);
export const TableRow = lineToken('TableRow', /^\s*\|.*\|\s*$/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [TableRule, TableRow, OtherLine, Newline];

export const tgiLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
