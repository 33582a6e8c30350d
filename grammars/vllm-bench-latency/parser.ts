/**
 * document := (result | line)*
 * result   := AvgLatency Newline? (stat Newline? | Newline)*
 *             — ends at the first line that is neither a statistic nor blank
 * line     := (stat | OtherLine) Newline? | Newline
 * stat     := StdLatency | PercentileLatency
 * A statistic after an interleaved line is a loose `line`; the visitor gives it to the result above.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, AvgLatency, Newline, OtherLine, PercentileLatency, StdLatency } from './tokens.js';

class LatencyParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.result) }, { ALT: () => this.SUBRULE(this.line) }]);
    });
  });

  result = this.RULE('result', () => {
    this.CONSUME(AvgLatency);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.SUBRULE(this.stat);
            this.OPTION2(() => this.CONSUME2(Newline));
          },
        },
        { ALT: () => this.CONSUME3(Newline) },
      ]);
    });
  });

  line = this.RULE('line', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([{ ALT: () => this.SUBRULE(this.stat) }, { ALT: () => this.CONSUME(OtherLine) }]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });

  stat = this.RULE('stat', () => {
    this.OR([{ ALT: () => this.CONSUME(StdLatency) }, { ALT: () => this.CONSUME(PercentileLatency) }]);
  });
}

export const latencyParser = lazily(() => new LatencyParser());
