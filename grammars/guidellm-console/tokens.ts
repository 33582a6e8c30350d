import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken, titleLineToken } from '../../src/parse/chevrotain.js';
import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';

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

/*
 * GuideLLM 0.2 and 0.3 (2025, `benchmark/output.py`, `GenerativeBenchmarksConsole`) printed other
 * tables: a `Benchmarks Info:` / `Benchmarks Stats:` title, a rule of `=` alone, a line of section
 * names, a header line, a `---|---` rule, one line per benchmark and a closing `=` rule, the cells
 * right-aligned and separated by `|` with no bar at either end. Printed by rich into a terminal
 * narrower than the table, each of these lines is wrapped over several (v03-table.ts puts them
 * back together): what a wrapped piece is, its table says, so the tokens below only tell the
 * kinds of line such a table is made of.
 */

/** `Benchmarks Metadata:`, `Benchmarks Info:`, `Benchmarks Stats:` (a write-up may drop the colon). */
export const SectionTitle = lineToken('SectionTitle', /^\s*Benchmarks (?:Metadata|Info|Stats):?\s*$/);
/**
 * The plain status lines those versions printed around their tables (`Creating backend...`,
 * `Benchmarks report saved to …`) and the frame of their progress panel (`╭─ Benchmarks ─╮`).
 */
export const PlainStatusLine = lineToken(
  'PlainStatusLine',
  /^\s*(?:Creating (?:backend|request loader)\.\.\.|Backend \S+ connected to |Created loader with |Generating\.\.\.|Saving benchmarks report\.\.\.|Benchmarks report saved to |Benchmarking complete\.|[╭│╰])/,
);
/** A rule of `=` alone: above and below a 0.3 table (or one piece of such a rule, wrapped). */
export const EqualsRule = lineToken('EqualsRule', /^\s*=+\s*$/);
/** A line with a `|` that is no pipe table's row: a 0.3 table's section, header, rule or value line, or a piece of one. */
export const BarRow = lineToken('BarRow', /\|/);
/** A line of one word: the last cell of a wrapped 0.3 line (`25.0`, `p99`), or a piece of its `---` rule. */
export const LonePiece = lineToken('LonePiece', /^\s*\S+\s*$/);
/** A line another process wrote into the output (see INTERLEAVED_LINE): never a table's, whatever `|` it holds. */
export const InterleavedLine = lineToken('InterleavedLine', INTERLEAVED_LINE);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [InterleavedLine, TitleLine, HeavyRule, DashRule, PipeRow, ModelLine, StatusLine, SectionTitle, PlainStatusLine, EqualsRule, BarRow, LonePiece, OtherLine, Newline];

export const guidellmLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
