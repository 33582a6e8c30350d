/**
 * document  := (block | looseLine)*
 * block     := BlockHeader Newline? ((KvLine | SectionRule | BareLabel | LogLine | GapLine) Newline?)* (Footer Newline?)?
 * looseLine := (KvLine | SectionRule | BareLabel | LogLine | GapLine | Footer | OtherLine) Newline? | Newline
 *
 * A block ends at its footer, a blank line, or the first line that is not part of a block (a
 * truncated paste); the visitor tells the two apart by whether a Footer was consumed. GapLine
 * comes only from resume.ts, which lexes a block again across its gaps.
 */
import { lazily } from '../../../src/parse/lazily.js';
import { CstParser } from '../../../src/parse/chevrotain-runtime.js';
import { allTokens, BareLabel, BlockHeader, Footer, GapLine, KvLine, LogLine, Newline, OtherLine, SectionRule } from './tokens.js';

class ServingBlockParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.block) }, { ALT: () => this.SUBRULE(this.looseLine) }]);
    });
  });

  block = this.RULE('block', () => {
    this.CONSUME(BlockHeader);
    this.OPTION(() => this.CONSUME(Newline));
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(KvLine) },
        { ALT: () => this.CONSUME(SectionRule) },
        { ALT: () => this.CONSUME(BareLabel) },
        { ALT: () => this.CONSUME(LogLine) },
        { ALT: () => this.CONSUME(GapLine) },
      ]);
      this.OPTION2(() => this.CONSUME2(Newline));
    });
    this.OPTION3(() => {
      this.CONSUME(Footer);
      this.OPTION4(() => this.CONSUME3(Newline));
    });
  });

  looseLine = this.RULE('looseLine', () => {
    this.OR([
      {
        ALT: () => {
          this.OR2([
            { ALT: () => this.CONSUME(KvLine) },
            { ALT: () => this.CONSUME(SectionRule) },
            { ALT: () => this.CONSUME(BareLabel) },
            { ALT: () => this.CONSUME2(LogLine) },
            { ALT: () => this.CONSUME2(GapLine) },
            { ALT: () => this.CONSUME(Footer) },
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
export const servingBlockParser = lazily(() => new ServingBlockParser());
