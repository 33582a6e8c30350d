import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken, titleLineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of the pipe tables GuideLLM prints to the console (`guidellm/utils/console.py`,
 * `print_table`): a title, a `|===|` rule, three header rows, a `|---|` rule, one row per
 * benchmark, a closing `|===|` rule. Order matters: the first matching token wins; OtherLine
 * takes every remaining line.
 */

/** A table line: a rule or a row, `|` at both ends. */
const TABLE_LINE = /^\s*\|/;
/** The heavy rule above a table, between its sub-tables and below it: `|=====|====|`. */
const HEAVY_RULE = /^\s*\|=+(?:\|=+)*\|\s*$/;

/**
 * The title GuideLLM prints above a table (`ℹ Run Summary Info`), or any other short text line
 * directly followed by a table's heavy rule (a write-up's heading, a title whose icon was lost).
 * Only the line right above the rule: rich prints the two together.
 */
export const TitleLine = titleLineToken(
  (line) => /\S/.test(line) && !TABLE_LINE.test(line),
  (following) => HEAVY_RULE.test(following.split('\n', 1)[0] ?? ''),
);
export const HeavyRule = lineToken('HeavyRule', HEAVY_RULE);
/** Below the header rows: `|-----|----|`. */
export const DashRule = lineToken('DashRule', /^\s*\|-+(?:\|-+)*\|\s*$/);
/** A header or value row: which one, the rules around it say (table.ts). */
export const PipeRow = lineToken('PipeRow', /^\s*\|.*\|\s*$/);
/** `✔ OpenAIHTTPBackend backend validated with model meta-llama/Llama-3.1-8B-Instruct`. */
export const ModelLine = lineToken('ModelLine', /\bbackend validated with model \S/);
/**
 * GuideLLM's other status lines, one icon per level (`ℹ ✔ ⚠ ✖ ‼ ⟳ …`; `•` for an unknown one):
 * its setup steps, `Benchmarking complete, generated 4 benchmark(s)`, the files it wrote.
 */
export const StatusLine = lineToken('StatusLine', /^\s*[ℹ✔⚠✖‼⟳…•]/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [TitleLine, HeavyRule, DashRule, PipeRow, ModelLine, StatusLine, OtherLine, Newline];

export const guidellmLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
