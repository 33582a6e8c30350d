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

/** Parses one stats message (prefix removed); tokens it cannot place are dropped by recovery. */
export function parseStatsLine(message: string): StatsLine {
  parser().input = statsLexer().tokenize(message).tokens;
  return parser().statsLine();
}
