/**
 * document  := (table | looseLine)*
 * table     := TitleLine (Newline | InterleavedLine)* frame? | frame
 * frame     := (TopRule (Newline | InterleavedLine)*)? ((HeaderRow | HeaderRule | BodyRow) Newline? (InterleavedLine Newline?)*)+ (BottomRule Newline?)?
 * looseLine := (Panel | CliCommand | MetricLine | DurationLine | BottomRule | InterleavedLine | OtherLine) Newline? | Newline
 *
 * A table is read past the lines another process wrote into it (InterleavedLine).
 *
 * A frame without its BottomRule is a table cut short; the visitor reports it.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, BodyRow, Panel, BottomRule, CliCommand, DurationLine, HeaderRow, InterleavedLine, MetricLine, HeaderRule, Newline, OtherLine, TitleLine, TopRule } from './tokens.js';

class ConsoleTableParser extends CstParser {
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
    this.OR([
      {
        ALT: () => {
          this.CONSUME(TitleLine);
          // a title opens the table below it past blank lines (a line of colour codes alone, stripped)
          this.MANY(() => this.OR2([{ ALT: () => this.CONSUME(Newline) }, { ALT: () => this.CONSUME(InterleavedLine) }]));
          this.OPTION2(() => this.SUBRULE(this.frame));
        },
      },
      { ALT: () => this.SUBRULE2(this.frame) },
    ]);
  });

  frame = this.RULE('frame', () => {
    this.OPTION(() => {
      this.CONSUME(TopRule);
      // past blank lines, as below a title
      this.MANY(() => this.OR2([{ ALT: () => this.CONSUME(Newline) }, { ALT: () => this.CONSUME(InterleavedLine) }]));
    });
    this.AT_LEAST_ONE(() => {
      this.OR([{ ALT: () => this.CONSUME(HeaderRow) }, { ALT: () => this.CONSUME(HeaderRule) }, { ALT: () => this.CONSUME(BodyRow) }]);
      this.OPTION3(() => this.CONSUME2(Newline));
      this.MANY2(() => {
        this.CONSUME2(InterleavedLine);
        this.OPTION6(() => this.CONSUME4(Newline));
      });
    });
    this.OPTION4(() => {
      this.CONSUME(BottomRule);
      this.OPTION5(() => this.CONSUME3(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(Panel) },
            { ALT: () => this.CONSUME(CliCommand) },
            { ALT: () => this.CONSUME(MetricLine) },
            { ALT: () => this.CONSUME(DurationLine) },
            { ALT: () => this.CONSUME(BottomRule) },
            { ALT: () => this.CONSUME(InterleavedLine) },
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
export const consoleTableParser = lazily(() => new ConsoleTableParser());
