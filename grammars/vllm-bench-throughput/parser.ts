/**
 * document := (result | line)*
 * result   := Throughput Newline? (TokenCount Newline? | Newline)*
 *             — ends at the first line that is neither a token count nor blank
 * line     := (TokenCount | OtherLine) Newline? | Newline
 * A token count after an interleaved line is a loose `line`; runs.ts gives it to the result above.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, Newline, OtherLine, Throughput, TokenCount } from './tokens.js';

class ThroughputParser extends CstParser {
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
    this.CONSUME(Throughput);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(TokenCount);
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
          this.OR2([{ ALT: () => this.CONSUME(TokenCount) }, { ALT: () => this.CONSUME(OtherLine) }]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });
}

export const throughputParser = lazily(() => new ThroughputParser());
