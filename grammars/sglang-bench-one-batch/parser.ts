/**
 * document := (section | line)*
 * section  := (Warmup | Benchmark) Newline? (body Newline? | Newline)*
 *             — ends at the next Warmup/Benchmark header or at the end of the input
 * line     := body Newline? | Newline
 * body     := Prefill | DecodeStep | DecodeMedian | Total | OtherLine
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, Benchmark, DecodeMedian, DecodeStep, Newline, OtherLine, Prefill, Total, Warmup } from './tokens.js';

class OneBatchParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.section) }, { ALT: () => this.SUBRULE(this.line) }]);
    });
  });

  section = this.RULE('section', () => {
    this.OR([{ ALT: () => this.CONSUME(Warmup) }, { ALT: () => this.CONSUME(Benchmark) }]);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR2([
        {
          ALT: () => {
            this.SUBRULE(this.body);
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
          this.SUBRULE(this.body);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });

  body = this.RULE('body', () => {
    this.OR([
      { ALT: () => this.CONSUME(Prefill) },
      { ALT: () => this.CONSUME(DecodeStep) },
      { ALT: () => this.CONSUME(DecodeMedian) },
      { ALT: () => this.CONSUME(Total) },
      { ALT: () => this.CONSUME(OtherLine) },
    ]);
  });
}

export const oneBatchParser = lazily(() => new OneBatchParser());
