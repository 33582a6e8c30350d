/**
 * document  := (summary | looseLine)*
 * summary   := SummaryTitle Newline? (MetricLine Newline?)* rounds?
 * rounds    := RoundsTitle Newline? (RoundLine Newline?)*
 * looseLine := (MetricLine | RoundsTitle | RoundLine | OtherLine) Newline? | Newline
 *
 * A summary runs from its title over its value lines and, when the run kept per-round values,
 * the per-round block. It has no footer: the visitor tells a cut one by its missing last line.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, MetricLine, Newline, OtherLine, RoundLine, RoundsTitle, SummaryTitle } from './tokens.js';

class MultiturnParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.summary) }, { ALT: () => this.SUBRULE(this.looseLine) }]);
    });
  });

  summary = this.RULE('summary', () => {
    this.CONSUME(SummaryTitle);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.CONSUME(MetricLine);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
    this.OPTION3(() => this.SUBRULE(this.rounds));
  });

  rounds = this.RULE('rounds', () => {
    this.CONSUME(RoundsTitle);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.CONSUME(RoundLine);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(MetricLine) },
            { ALT: () => this.CONSUME(RoundsTitle) },
            { ALT: () => this.CONSUME(RoundLine) },
            { ALT: () => this.CONSUME(OtherLine) },
          ]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const multiturnParser = lazily(() => new MultiturnParser());
