/**
 * document  := (table | looseLine)*
 * table     := TitleLine Newline? frame? | frame
 * frame     := ((HeavyRule | DashRule | PipeRow) Newline?)+
 * looseLine := (ModelLine | StatusLine | OtherLine) Newline? | Newline
 *
 * A frame is a run of table lines with nothing between them; what each line is to its table
 * (header, value, end) is read from the rules around it (table.ts), so a frame broken by a foreign
 * line can be continued by the next one.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, DashRule, HeavyRule, ModelLine, Newline, OtherLine, PipeRow, StatusLine, TitleLine } from './tokens.js';

class GuidellmConsoleParser extends CstParser {
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
          this.OPTION(() => this.CONSUME(Newline));
          this.OPTION2(() => this.SUBRULE(this.frame));
        },
      },
      { ALT: () => this.SUBRULE2(this.frame) },
    ]);
  });

  frame = this.RULE('frame', () => {
    this.AT_LEAST_ONE(() => {
      this.OR([{ ALT: () => this.CONSUME(HeavyRule) }, { ALT: () => this.CONSUME(DashRule) }, { ALT: () => this.CONSUME(PipeRow) }]);
      this.OPTION(() => this.CONSUME(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([{ ALT: () => this.CONSUME(ModelLine) }, { ALT: () => this.CONSUME(StatusLine) }, { ALT: () => this.CONSUME(OtherLine) }]);
          this.OPTION(() => this.CONSUME(Newline));
        },
      },
      { ALT: () => this.CONSUME2(Newline) },
    ]);
  });
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const guidellmConsoleParser = lazily(() => new GuidellmConsoleParser());
