import { lazily } from '../../src/parse/lazily.js';
import { createToken, type CustomPatternMatcherReturn, Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken, titleLineToken } from '../../src/parse/chevrotain.js';
import { INTERLEAVED_LINE, pastBlankAndInterleavedLines } from '../_shared/interleaved-line.js';

/**
 * Line kinds of the `rich` tables GenAI-Perf and AIPerf print (formats.md §7.1). Order matters:
 * the first matching token wins; OtherLine takes every remaining line.
 */
/**
 * The centered title `rich` prints above a table (`NVIDIA AIPerf | LLM Metrics: Spec Decode`,
 * `LLM Metrics`, `NVIDIA AIPerf | GPU Telemetry`): any short text line followed by a table's top
 * border, blank lines (a line of colour codes alone is one once cleaned) and interleaved lines
 * between them allowed.
 */
export const TitleLine = titleLineToken(
  (line) => /^\s*\S/.test(line) && !/[┏┃│└┡]/.test(line) && !INTERLEAVED_LINE.test(line),
  (following) => /^\s*┏/.test(following.slice(pastBlankAndInterleavedLines(following, 0, 4))),
);

/** A line another process wrote into the output: a server's log line, a progress bar (see INTERLEAVED_LINE). */
export const InterleavedLine = lineToken('InterleavedLine', INTERLEAVED_LINE);
/**
 * A `rich` panel (`╭─ GPU Telemetry Platform ─╮`, `│ … │` lines, `╰──╯`), AIPerf 2026's notice
 * above its GPU sections: one token from its top border to its bottom one, so that its `│` lines
 * are not read as the rows of a table without header.
 */
const PANEL_TOP = /[^\S\n]*╭─[^\n]*╮[^\S\n]*(?=\n)/y;
const PANEL_BOTTOM = /^\s*╰─*╯\s*$/;
const PANEL_LINE = /^\s*│.*│\s*$/;
export const Panel = createToken({
  name: 'Panel',
  line_breaks: true,
  pattern: {
    exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
      if (offset > 0 && text.charCodeAt(offset - 1) !== 10) return null;
      PANEL_TOP.lastIndex = offset;
      if (!PANEL_TOP.test(text)) return null;
      let end = PANEL_TOP.lastIndex;
      // body lines, then the bottom border; no bottom border: no panel
      for (let lines = 0; lines < 50 && end < text.length; lines++) {
        const next = text.indexOf('\n', end + 1);
        const line = text.slice(end + 1, next < 0 ? text.length : next);
        if (PANEL_BOTTOM.test(line)) return [text.slice(offset, end + 1 + line.length)] as CustomPatternMatcherReturn;
        if (!PANEL_LINE.test(line) || next < 0) return null;
        end = next;
      }
      return null;
    },
  },
});
export const TopRule = lineToken('TopRule', /^\s*┏[━┳]+┓?\s*$/);
export const HeaderRow = lineToken('HeaderRow', /^\s*┃.*┃/);
export const HeaderRule = lineToken('HeaderRule', /^\s*┡[━╇]+┩?\s*$/);
export const BodyRow = lineToken('BodyRow', /^\s*│.*│/);
export const BottomRule = lineToken('BottomRule', /^\s*└[─┴]+┘?\s*$/);
/** AIPerf's `CLI Command:` echo after its tables, or a pasted `$ genai-perf profile …` line (`genai-perf \` continued onto the next line too). */
export const CliCommand = lineToken('CliCommand', /^\s*(?:CLI Command:|\$?\s*(?:genai-perf|aiperf)(?: profile\b|\s*\\\s*$))/);
/** SDK 24.06 printed the throughputs below the table: `Request throughput (per sec): 0.62`. */
export const MetricLine = lineToken('MetricLine', /^\s*[A-Z][\w ]{2,60}\((?:per sec|tokens\/sec|requests\/sec)\):\s*[\d,.]+\s*$/);
export const DurationLine = lineToken('DurationLine', /^\s*Benchmark Duration:/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [InterleavedLine, Panel, TitleLine, TopRule, HeaderRow, HeaderRule, BodyRow, BottomRule, CliCommand, MetricLine, DurationLine, OtherLine, Newline];

export const consoleLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));
