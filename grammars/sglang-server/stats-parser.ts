/**
 * statsLine := Head? field*
 * field     := Key Colon (NumberValue | WordValue)?
 *
 * Built as an EmbeddedActionsParser: the line's dictionary is assembled while parsing, since
 * millions of such lines may pass through and a CST per line would be wasted work.
 */
import { lazily } from '../../src/parse/lazily.js';
import { EmbeddedActionsParser } from '../../src/parse/chevrotain-runtime.js';
import { Colon, Head, isLineTime, Key, NumberValue, statsLexer, statsTokens, TimeValue, WordValue } from './stats-tokens.js';

export interface StatsLine {
  /** `Prefill batch [3]` → `prefill batch [3]`; null for the bare 2024 `#running-req: …` line. */
  readonly head: string | null;
  readonly fields: ReadonlyMap<string, string>;
}

class StatsParser extends EmbeddedActionsParser {
  constructor() {
    super(statsTokens, { recoveryEnabled: true, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  statsLine = this.RULE('statsLine', (): StatsLine => {
    const fields = new Map<string, string>();
    let head: string | null = null;
    this.OPTION(() => {
      head = this.CONSUME(Head).image;
    });
    this.MANY(() => {
      const key = this.CONSUME(Key).image;
      this.CONSUME(Colon);
      let value = '';
      this.OPTION2(() => {
        value = this.OR([{ ALT: () => this.CONSUME(TimeValue).image }, { ALT: () => this.CONSUME(NumberValue).image }, { ALT: () => this.CONSUME(WordValue).image }]);
      });
      if (!fields.has(key)) fields.set(key, value);
    });
    return { head, fields };
  });
}

const parser = lazily(() => new StatsParser());

/**
 * Parses one stats message (prefix removed); tokens it cannot place are dropped by recovery. The
 * shape every SGLang release since 2025 prints is read by commonStatsLine first, the grammar
 * reads the rest (a property test checks they agree wherever the first answers).
 */
export function parseStatsLine(message: string): StatsLine {
  return commonStatsLine(message) ?? parseStatsLineWithGrammar(message);
}

/** The grammar alone (the reference of commonStatsLine). */
export function parseStatsLineWithGrammar(message: string): StatsLine {
  parser().input = statsLexer().tokenize(message).tokens;
  return parser().statsLine();
}

const COMMON_HEAD = /^(?:Prefill|Decode) batch(?: ?\[(?:\d+|[A-Za-z][A-Za-z ]*)\])?(?=,|$)/;
/** A key the grammar reads as one: words, then a parenthesized unit. */
const COMMON_KEY = /^#?(?:est\. )?[A-Za-z][\w/-]*(?: [A-Za-z][\w/-]*)*(?: \([^)]*\))?$/;
/** The grammar's lexer reads these as a head wherever they stand, even at the start of a key. */
const HEAD_START = /^(?:(?:Prefill|Decode) batch|new fill batch)/;

/**
 * `Decode batch[7], #running-req: 68, token usage: 0.49, cuda graph: True, gen throughput
 * (token/s): 2499.67, #queue-req: 0,` read by splitting at `, ` and `: `, or null for any other
 * shape. Why: a stats-dense log has a line every few hundred milliseconds, and lexing and parsing
 * each one through Chevrotain was the largest cost of reading it.
 */
export function commonStatsLine(message: string): StatsLine | null {
  const head = COMMON_HEAD.exec(message);
  if (!head) return null;
  const rest = withoutTrailingComma(message.slice(head[0].length));
  const fields = new Map<string, string>();
  if (rest === '') return { head: head[0], fields };
  if (!rest.startsWith(', ')) return null;
  // pairs between `, ` separators; a value holds no space, so the last `: ` of a pair ends its key
  for (let start = 2; start <= rest.length; ) {
    let end = rest.indexOf(', ', start);
    if (end < 0) end = rest.length;
    const colon = rest.lastIndexOf(': ', end - 2);
    if (colon < start) return null;
    const key = rest.slice(start, colon);
    const value = rest.slice(colon + 2, end);
    if (!isCommonKey(key) || !isCommonValue(value)) return null;
    if (!fields.has(key)) fields.set(key, value);
    start = end + 2;
  }
  return { head: head[0], fields };
}

/** Keys checked once: a log repeats the same few on every line. */
const COMMON_KEYS = new Map<string, boolean>();
const MAX_COMMON_KEYS = 1024;

function isCommonKey(key: string): boolean {
  let ok = COMMON_KEYS.get(key);
  if (ok === undefined) {
    ok = COMMON_KEY.test(key) && !HEAD_START.test(key);
    if (COMMON_KEYS.size < MAX_COMMON_KEYS) COMMON_KEYS.set(key, ok);
  }
  return ok;
}

/**
 * A value the grammar reads as one token: a line's time (`2025-07-18T15:32:52.498932`), a decimal
 * (`-?(\d+(\.\d+)?|\.\d+)%?`), `nan`, `nan%` or `inf`, or a word of letters that does not start
 * like those (the grammar splits `infinity` after `inf`).
 */
function isCommonValue(value: string): boolean {
  const n = value.length;
  if (n === 0) return false;
  if (isLineTime(value)) return true;
  if (value === 'nan' || value === 'nan%' || value === 'inf') return true;
  if (isLetter(value.charCodeAt(0))) {
    if (value.startsWith('nan') || value.startsWith('inf')) return false;
    for (let i = 1; i < n; i++) if (!isLetter(value.charCodeAt(i))) return false;
    return true;
  }
  let i = value.charCodeAt(0) === MINUS ? 1 : 0;
  const end = value.charCodeAt(n - 1) === PERCENT ? n - 1 : n;
  let before = 0;
  while (i < end && isDigit(value.charCodeAt(i))) {
    i++;
    before++;
  }
  if (i === end) return before > 0;
  if (value.charCodeAt(i) !== DOT) return false;
  i++;
  let after = 0;
  while (i < end && isDigit(value.charCodeAt(i))) {
    i++;
    after++;
  }
  return i === end && after > 0;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const MINUS = 45;
const PERCENT = 37;
const DOT = 46;

/** `text` without a last `,` and the spaces after it (as `/,\s*$/` would, without trying every comma). */
function withoutTrailingComma(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
  return end > 0 && text.charCodeAt(end - 1) === COMMA ? text.slice(0, end - 1) : text;
}

const COMMA = 44;
