/**
 * document  := (summary | looseLine)*
 * summary   := SummaryTitle Newline* (SummaryValue Newline*)* (Separator Newline*)? table? (Separator Newline?)?
 * table     := TableHeader Newline? ((TableRow | TableHeader) Newline? | Newline)*
 * looseLine := (InvocationStart | ParamsTitle | ParamLine | ServerVersion | ServedModel | SummaryValue | Separator | TableHeader | TableRow | OtherLine) Newline? | Newline
 *
 * A summary runs from its title over its `key = value` lines, the separator, the describe table
 * (pandas may wrap it in chunks separated by a blank line) and the closing separator. A summary
 * with no closing separator was cut (a killed run, a truncated paste); the visitor says so.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, InvocationStart, Newline, OtherLine, ParamLine, ParamsTitle, Separator, ServedModel, ServerVersion, SummaryTitle, SummaryValue, TableHeader, TableRow } from './tokens.js';

class MultiTurnParser extends CstParser {
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
    // blank lines written in among its first lines (another process's empty line) are read across
    this.CONSUME(SummaryTitle);
    this.MANY(() => this.CONSUME(Newline));
    this.MANY2(() => {
      this.CONSUME(SummaryValue);
      this.MANY3(() => this.CONSUME2(Newline));
    });
    this.OPTION3(() => {
      this.CONSUME(Separator);
      this.MANY4(() => this.CONSUME3(Newline));
    });
    this.OPTION5(() => this.SUBRULE(this.table));
    this.OPTION6(() => {
      this.CONSUME2(Separator);
      this.OPTION7(() => this.CONSUME4(Newline));
    });
  });

  table = this.RULE('table', () => {
    this.CONSUME(TableHeader);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.OR2([{ ALT: () => this.CONSUME(TableRow) }, { ALT: () => this.CONSUME2(TableHeader) }]);
            this.OPTION2(() => this.CONSUME2(Newline));
          },
        },
        { ALT: () => this.CONSUME3(Newline) },
      ]);
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(InvocationStart) },
            { ALT: () => this.CONSUME(ParamsTitle) },
            { ALT: () => this.CONSUME(ParamLine) },
            { ALT: () => this.CONSUME(ServerVersion) },
            { ALT: () => this.CONSUME(ServedModel) },
            { ALT: () => this.CONSUME(SummaryValue) },
            { ALT: () => this.CONSUME(Separator) },
            { ALT: () => this.CONSUME(TableHeader) },
            { ALT: () => this.CONSUME(TableRow) },
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
export const multiTurnParser = lazily(() => new MultiTurnParser());
