/**
 * document  := (table | barFrame | looseLine)*
 * table     := TitleLine Newline? frame? | frame
 * frame     := ((HeavyRule | DashRule | PipeRow) Newline?)+
 * barFrame  := EqualsRule Newline? ((EqualsRule | BarRow | LonePiece | PipeRow | DashRule | InterleavedLine) Newline?)*
 * looseLine := (ModelLine | StatusLine | SectionTitle | PlainStatusLine | BarRow | LonePiece | InterleavedLine | OtherLine) Newline? | Newline
 *
 * A frame is a run of table lines with nothing between them; what each line is to its table
 * (header, value, end) is read from the rules around it (table.ts), so a frame broken by a foreign
 * line can be continued by the next one. A barFrame is the same for the tables of GuideLLM 0.2 and
 * 0.3, from their `=` rule on (v03-table.ts): a piece of one of their lines wrapped by a narrow
 * terminal may start and end with a `|`, or be one word.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser } from '../../src/parse/chevrotain-runtime.js';
import {
  allTokens,
  BarRow,
  DashRule,
  EqualsRule,
  HeavyRule,
  InterleavedLine,
  LonePiece,
  ModelLine,
  Newline,
  OtherLine,
  PipeRow,
  PlainStatusLine,
  SectionTitle,
  StatusLine,
  TitleLine,
} from './tokens.js';

class GuidellmConsoleParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.table) }, { ALT: () => this.SUBRULE(this.barFrame) }, { ALT: () => this.SUBRULE(this.looseLine) }]);
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

  barFrame = this.RULE('barFrame', () => {
    this.CONSUME(EqualsRule);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME2(EqualsRule) },
        { ALT: () => this.CONSUME(BarRow) },
        { ALT: () => this.CONSUME(LonePiece) },
        { ALT: () => this.CONSUME(PipeRow) },
        { ALT: () => this.CONSUME(DashRule) },
        // a progress bar written into the table (its `|` makes it no cut): passed over
        { ALT: () => this.CONSUME(InterleavedLine) },
      ]);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(ModelLine) },
            { ALT: () => this.CONSUME(StatusLine) },
            { ALT: () => this.CONSUME(SectionTitle) },
            { ALT: () => this.CONSUME(PlainStatusLine) },
            { ALT: () => this.CONSUME(BarRow) },
            { ALT: () => this.CONSUME(LonePiece) },
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
export const guidellmConsoleParser = lazily(() => new GuidellmConsoleParser());
