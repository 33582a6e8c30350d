/**
 * document  := (table | looseLine)*
 * table     := (AsciiBorder | BoxTop) Newline? ((CellLine | AsciiBorder | BoxRule) Newline?)* (BoxBottom Newline?)?
 * looseLine := (OtherLine | CellLine | BoxRule | BoxBottom) Newline? | Newline
 *
 * A table runs from a top border over its lines of cells and rules to its bottom border (rich,
 * simple_outline) or its last line (tabulate's grid, whose bottom rule looks like its top one: the
 * visitor tells a bottom rule from the top of a table printed right under it). A blank or foreign
 * line ends a table that has not closed: the text was cut.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, AsciiBorder, BoxBottom, BoxRule, BoxTop, CellLine, Newline, OtherLine } from './tokens.js';

class BoxTableParser extends CstParser {
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
    this.OR([{ ALT: () => this.CONSUME(AsciiBorder) }, { ALT: () => this.CONSUME(BoxTop) }]);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR2([{ ALT: () => this.CONSUME(CellLine) }, { ALT: () => this.CONSUME2(AsciiBorder) }, { ALT: () => this.CONSUME(BoxRule) }]);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
    this.OPTION3(() => {
      this.CONSUME(BoxBottom);
      this.OPTION4(() => this.CONSUME3(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(OtherLine) },
            { ALT: () => this.CONSUME(CellLine) },
            { ALT: () => this.CONSUME(BoxRule) },
            { ALT: () => this.CONSUME(BoxBottom) },
          ]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const boxTableParser = lazily(() => new BoxTableParser());
