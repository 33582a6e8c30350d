import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of what vLLM's `benchmarks/multi_turn/benchmark_serving_multi_turn.py` prints (its
 * logger prefix already removed, text.ts): the `Parameters:` block of `key=value` lines, each
 * `Statistics summary:` title with its `key = value` lines, the 100-dash `TEXT_SEPARATOR`, and
 * the pandas `describe().transpose()` table (a header of statistic names, a row per metric).
 * Order matters: the first matching token wins.
 */

/** `Statistics summary:` or, with several `--warmup-percentages`, `Statistics summary (assuming 50% warmup samples):`. */
export const SUMMARY_TITLE = /^Statistics summary(?: \(assuming (\d+(?:\.\d+)?)% warmup samples\))?:$/;
export const SummaryTitle = lineToken('SummaryTitle', SUMMARY_TITLE);
/** `bench_utils.TEXT_SEPARATOR` ("-" × 100); the logger's progress block prints 50. */
export const SEPARATOR = /^-{20,}$/;
export const Separator = lineToken('Separator', SEPARATOR);
/** The start of one invocation's log: `logger.info(args)` (a `Namespace(...)`) or `Input parameters:`. */
export const INVOCATION_START = /^(?:Namespace\(.*\)|Input parameters:)$/;
export const InvocationStart = lineToken('InvocationStart', INVOCATION_START);
/** `Parameters:` / `Conversations Generation Parameters:` printed above the summaries. */
export const ParamsTitle = lineToken('ParamsTitle', /^(?:Conversations Generation )?Parameters:$/);
/** `runtime_sec = 215.810` (the summary's own values, `f"{k} = {v:.3f}"`). */
export const SUMMARY_VALUE = /^([a-z][a-z0-9_]*) = (\S+)$/;
export const SummaryValue = lineToken('SummaryValue', SUMMARY_VALUE);
/** `model=/models/llama` (`f"{k}={v}"`: the Parameters block, the logged input parameters). */
export const PARAM_LINE = /^([a-z][a-z0-9_]*)=(.*)$/;
export const ParamLine = lineToken('ParamLine', PARAM_LINE);

const STAT = String.raw`(?:count|mean|std|min|max|\d+(?:\.\d+)?%|\.\.\.)`;
/** The describe table's header: statistic names only, indented past the row names; ` \` when pandas wrapped it. */
export const TABLE_HEADER = new RegExp(String.raw`^\s+${STAT}(?:\s+${STAT})*(?:\s+\\)?$`);
export const TableHeader = lineToken('TableHeader', TABLE_HEADER);
const CELL = String.raw`(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|NaN|[-+]?inf|\.\.\.)`;
/** A metric's row: its name, then numbers (`NaN` for a count of 1's std, `...` where pandas cut columns). */
export const TABLE_ROW = new RegExp(String.raw`^[A-Za-z_][A-Za-z0-9_]*(?:\s+${CELL})+(?:\s+\\)?$`);
export const TableRow = lineToken('TableRow', TABLE_ROW);
/** `Server version: {"version":"0.10.1"}` (`get_server_info`: the body of the server's `/version`, logged as is). */
export const SERVER_VERSION = /^Server version: (.*)$/;
export const ServerVersion = lineToken('ServerVersion', SERVER_VERSION);
/** `\tmodel_id='Llama', max_model_len=131072` (`get_server_info`: one line per model `/v1/models` lists; `'N/A'` when it states none). */
export const SERVED_MODEL = /^\s*model_id=(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"), max_model_len=(\d+|'N\/A')$/;
export const ServedModel = lineToken('ServedModel', SERVED_MODEL);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [SummaryTitle, Separator, InvocationStart, ParamsTitle, SummaryValue, TableHeader, TableRow, ServerVersion, ServedModel, ParamLine, OtherLine, Newline];

export const multiTurnLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'onlyStart', ensureOptimizations: false, skipValidations: true }));
