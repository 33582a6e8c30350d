/**
 * statsLine := Head? field*
 * field     := Key Colon (NumberValue | WordValue)?
 *
 * Built as an EmbeddedActionsParser: the line's dictionary is assembled while parsing, since
 * millions of such lines may pass through and a CST per line would be wasted work.
 */
import { lazily } from '../../src/parse/lazily.js';
import { EmbeddedActionsParser } from '../../src/parse/chevrotain-runtime.js';
import { Colon, Head, Key, NumberValue, statsLexer, statsTokens, WordValue } from './stats-tokens.js';

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
        value = this.OR([{ ALT: () => this.CONSUME(NumberValue).image }, { ALT: () => this.CONSUME(WordValue).image }]);
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

const COMMON_HEAD = /^(?:Prefill|Decode) batch(?: ?\[\d+\])?(?=,|$)/;
/** `key: value`; a word value must not start like the lexer's `nan` / `inf` numbers (the grammar splits `infinity` there). */
const COMMON_PAIR = /^(#?[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*(?: \([^)]*\))?): (-?(?:\d+(?:\.\d+)?|\.\d+)%?|(?:nan|inf)(?![A-Za-z])|(?!nan|inf)[A-Za-z]+)$/;

/**
 * `Decode batch[7], #running-req: 68, token usage: 0.49, cuda graph: True, gen throughput
 * (token/s): 2499.67, #queue-req: 0,` read by splitting at `, ` and `: `, or null for any other
 * shape. Why: a stats-dense log has a line every few hundred milliseconds, and lexing and parsing
 * each one through Chevrotain was the largest cost of reading it.
 */
export function commonStatsLine(message: string): StatsLine | null {
  const head = COMMON_HEAD.exec(message);
  if (!head) return null;
  const rest = message.slice(head[0].length).replace(/,\s*$/, '');
  const fields = new Map<string, string>();
  if (rest === '') return { head: head[0], fields };
  if (!rest.startsWith(', ')) return null;
  for (const pair of rest.slice(2).split(', ')) {
    const m = COMMON_PAIR.exec(pair);
    if (!m) return null;
    const key = m[1] as string;
    if (!fields.has(key)) fields.set(key, m[2] as string);
  }
  return { head: head[0], fields };
}
