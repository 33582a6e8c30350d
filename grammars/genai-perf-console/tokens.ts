import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken, titleLineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of the `rich` tables GenAI-Perf and AIPerf print (formats.md §7.1). Order matters:
 * the first matching token wins; OtherLine takes every remaining line.
 */
/**
 * The centered title `rich` prints above a table (`NVIDIA AIPerf | LLM Metrics: Spec Decode`,
 * `LLM Metrics`, `NVIDIA AIPerf | GPU Telemetry`): any short text line directly followed by a
 * table's top border.
 */
export const TitleLine = titleLineToken(
  (line) => /^\s*\S/.test(line) && !/[┏┃│└┡]/.test(line),
  (following) => /^\s*┏/.test(following),
);
export const TopRule = lineToken('TopRule', /^\s*┏[━┳]+┓?\s*$/);
export const HeaderRow = lineToken('HeaderRow', /^\s*┃.*┃/);
export const HeaderRule = lineToken('HeaderRule', /^\s*┡[━╇]+┩?\s*$/);
export const BodyRow = lineToken('BodyRow', /^\s*│.*│/);
export const BottomRule = lineToken('BottomRule', /^\s*└[─┴]+┘?\s*$/);
/** AIPerf's `CLI Command:` echo after its tables, or a pasted `$ genai-perf profile …` line. */
export const CliCommand = lineToken('CliCommand', /^\s*(?:CLI Command:|\$?\s*(?:genai-perf|aiperf) profile\b)/);
/** SDK 24.06 printed the throughputs below the table: `Request throughput (per sec): 0.62`. */
export const MetricLine = lineToken('MetricLine', /^\s*[A-Z][\w ]{2,60}\((?:per sec|tokens\/sec|requests\/sec)\):\s*[\d,.]+\s*$/);
export const DurationLine = lineToken('DurationLine', /^\s*Benchmark Duration:/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [TitleLine, TopRule, HeaderRow, HeaderRule, BodyRow, BottomRule, CliCommand, MetricLine, DurationLine, OtherLine, Newline];

export const consoleLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
