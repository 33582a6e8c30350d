import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of the tables EvalScope prints (log prefixes already removed): tabulate's `grid` and
 * `pretty` (`+---+`, `+===+`: top, inner and bottom rules alike), its `simple_outline` and rich's
 * boxes (`┌─┬┐`/`┏━┳┓` top, `├─┼┤`/`┡━╇┩` inner, `└─┴┘` bottom), lines of cells between vertical
 * bars. Order matters: the first matching token wins.
 */
export const AsciiBorder = lineToken('AsciiBorder', /^\s*\+[-=+:]*\+\s*$/);
export const BoxTop = lineToken('BoxTop', /^\s*[┌┏╭][─━┬┳┯╤]*[┐┓╮]\s*$/);
export const BoxRule = lineToken('BoxRule', /^\s*[├┡╞┢][─━┼╇╪┿╈]*[┤┩╡┪]\s*$/);
export const BoxBottom = lineToken('BoxBottom', /^\s*[└╰][─━┴┷╧]*[┘╯]\s*$/);
export const CellLine = lineToken('CellLine', /^\s*[|│┃].*[|│┃]\s*$/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [AsciiBorder, BoxTop, BoxRule, BoxBottom, CellLine, OtherLine, Newline];

export const boxTableLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));

/** Does a line (log prefix removed) belong to a table? A source is cut into pieces only before one that does not. */
export const TABLE_LINE = /^\s*[+┌┏╭├┡╞┢└╰|│┃]/;
