/**
 * document := (report | looseLine)*
 * report   := SectionHeader (SectionHeader | bodyLine)*
 * bodyLine := Rule | Breakdown | SubHeader | DashRule | TableHeader | PercentileRow | MachineLine | KvLine
 * looseLine:= bodyLine | OtherLine
 *
 * Blank lines are skipped by the lexer (the report prints them between groups). A report ends at
 * the first line that cannot belong to it (a log line); the visitor splits reports printed back to
 * back at their backend section or at a repeated section title.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import * as T from './tokens.js';

class TrtllmBenchParser extends CstParser {
  constructor() {
    super(T.allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.report) }, { ALT: () => this.SUBRULE(this.looseLine) }]);
    });
  });

  report = this.RULE('report', () => {
    this.CONSUME(T.SectionHeader);
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME2(T.SectionHeader) }, { ALT: () => this.SUBRULE(this.bodyLine) }]);
    });
  });

  bodyLine = this.RULE('bodyLine', () => {
    this.OR([
      { ALT: () => this.CONSUME(T.Rule) },
      { ALT: () => this.CONSUME(T.Breakdown) },
      { ALT: () => this.CONSUME(T.SubHeader) },
      { ALT: () => this.CONSUME(T.DashRule) },
      { ALT: () => this.CONSUME(T.TableHeader) },
      { ALT: () => this.CONSUME(T.PercentileRow) },
      { ALT: () => this.CONSUME(T.MachineLine) },
      { ALT: () => this.CONSUME(T.KvLine) },
    ]);
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([{ ALT: () => this.SUBRULE(this.bodyLine) }, { ALT: () => this.CONSUME(T.OtherLine) }]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const trtllmBenchParser = lazily(() => new TrtllmBenchParser());
