import { lazily } from '../../src/parse/lazily.js';
import { createToken, type CustomPatternMatcherReturn, Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken } from '../../src/parse/chevrotain.js';
import { pastBlankAndInterleavedLines } from '../_shared/interleaved-line.js';

export const RULE = /^={20,}[ \t]*$/;
/** The title line of a section header: `= PERFORMANCE OVERVIEW`. */
export const TITLE_LINE = /^=[ \t]+\S/;

/**
 * `====…` / `= TITLE ` / `====…`: one token spanning the three lines of a section header, so the
 * parser needs no lookahead to tell a section start from the closing rule of the last section.
 * The second rule is optional (hand-trimmed pastes drop it). Blank and interleaved lines between
 * the three are passed over, up to HEADER_GAP_LINES (a line of colour codes alone once cleaned, a
 * server's log line, lines of text the grammar blanked; the visitor counts the second): a title
 * parted from its rule lost the section under it.
 */
/**
 * Lines passed between a header's rule and its title, or its title and its second rule: another
 * process's message of several lines (the tokenizers' fork warning is four), up to three lines of
 * text, blank lines. A rule and a title line further apart are no header (the title is said to be
 * orphaned).
 */
const HEADER_GAP_LINES = 12;

export const SectionHeader = createToken({
  name: 'SectionHeader',
  line_breaks: true,
  pattern: {
    exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
      if (offset > 0 && text.charCodeAt(offset - 1) !== 10) return null;
      const first = lineAt(text, offset);
      if (!RULE.test(first)) return null;
      const titleStart = pastBlankAndInterleavedLines(text, offset + first.length + 1, HEADER_GAP_LINES);
      if (titleStart >= text.length) return null;
      const title = lineAt(text, titleStart);
      if (!TITLE_LINE.test(title)) return null;
      let end = titleStart + title.length;
      const ruleStart = pastBlankAndInterleavedLines(text, end + 1, HEADER_GAP_LINES);
      const next = ruleStart < text.length ? lineAt(text, ruleStart) : '';
      if (RULE.test(next)) end = ruleStart + next.length;
      return [text.slice(offset, end)] as CustomPatternMatcherReturn;
    },
  },
});

function lineAt(text: string, offset: number): string {
  const end = text.indexOf('\n', offset);
  return text.slice(offset, end < 0 ? text.length : end);
}

/** A lone `====…` rule: the end of the last section. */
export const Rule = lineToken('Rule', RULE);
/** `[TPOT] P50    : 204.0463`, `[Latency] MINIMUM: …`, `[AL] AVERAGE: 2.31`. */
export const Breakdown = lineToken('Breakdown', /^\[[A-Za-z]+\][ \t]*[A-Za-z0-9.]+[ \t]*:/);
/** `-- Request Latency Breakdown (ms) -----`, `-- Percentiles statistics ----`. */
export const SubHeader = lineToken('SubHeader', /^--[ \t]*[A-Za-z]/);
export const DashRule = lineToken('DashRule', /^-{10,}[ \t]*$/);
/** The column header of the dataset percentile table. */
export const TableHeader = lineToken('TableHeader', /^Input[ \t]+Output[ \t]+Seq\. Length[ \t]*$/);
/** `MIN:   128.0000   128.0000   256.0000`, or fewer cells when the file is cut inside it (never a `Label: value` line). */
export const PercentileRow = lineToken('PercentileRow', /^(?:MIN|MAX|AVG|P\d+(?:\.\d+)?):(?:[ \t]|$)/);
/** MACHINE DETAILS body: `NVIDIA H100 80GB HBM3, memory 79.65 GB, 2.62 GHz` or no info. */
export const MachineLine = lineToken('MachineLine', /^[^:]+, memory \S+(?: GB)?, \S+(?: GHz)?[ \t]*$|^No GPU info available[ \t]*$/);
/** `Label (unit):<TABs or spaces>value`. */
export const KvLine = lineToken('KvLine', /^[A-Za-z][^:]{0,100}:(?:[ \t].*)?$/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = createToken({ name: 'Newline', pattern: /\n/, line_breaks: true, group: Lexer.SKIPPED });

export const BODY_TOKENS = [Rule, Breakdown, SubHeader, DashRule, TableHeader, PercentileRow, MachineLine, KvLine];

/**
 * Whether one line (without its `\n`) is a body line of a report, as the lexer's first token on it
 * would say, without lexing it (a lexer's run costs microseconds a line; a file's every line is asked).
 */
export function isBodyLine(line: string): boolean {
  return BODY_TOKENS.some((t) => (t.PATTERN as { exec(text: string, offset: number): unknown }).exec(line, 0) !== null);
}
export const allTokens = [SectionHeader, ...BODY_TOKENS, OtherLine, Newline];

export const trtllmBenchLexer = lazily(() => new Lexer(allTokens, {
  positionTracking: 'full',
  ensureOptimizations: false,
  skipValidations: true,
}));
