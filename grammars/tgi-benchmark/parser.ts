/**
 * document  := (table | looseLine)*
 * table     := TableRow Newline? (TableRule Newline? | TableRow Newline?)*
 * looseLine := (TableRule | OtherLine) Newline? | Newline
 *
 * A table is a run of `|` lines; a TableRule marks the row before it as a header, so two tables
 * printed without a blank line between them are told apart by the visitor.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, Newline, OtherLine, TableRow, TableRule } from './tokens.js';

class TgiTableParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.table) }, { ALT: () => this.SUBRULE(this.looseLine) }]);
    });
  });

  table = this.RULE('table', () => {
    this.CONSUME(TableRow);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(TableRule) }, { ALT: () => this.CONSUME2(TableRow) }]);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([{ ALT: () => this.CONSUME(TableRule) }, { ALT: () => this.CONSUME(OtherLine) }]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const tgiTableParser = lazily(() => new TgiTableParser());
