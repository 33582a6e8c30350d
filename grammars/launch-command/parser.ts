/**
 * script    := (statement | separator)*
 * statement := (Word | OpenQuoteWord | Stray | redirect)+
 * redirect  := Redirect Word?
 * separator := Newline | Semi | AndAnd | OrOr | Pipe | Amp
 *
 * One statement is one simple command: the words between two shell operators. A redirect's target
 * is not a word of the command (`> out.txt`, `2>&1`), and `| tee log` starts a statement of its own.
 */
import { lazily } from '../../src/parse/lazily.js';
import { CstParser, type CstNode, type IToken } from '../../src/parse/chevrotain-runtime.js';
import { allTokens, AndAnd, Amp, Newline, OpenQuoteWord, OrOr, Pipe, Redirect, Semi, Stray, Word } from './tokens.js';

class ShellParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  script = this.RULE('script', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.statement) }, { ALT: () => this.SUBRULE(this.separator) }]);
    });
  });

  statement = this.RULE('statement', () => {
    this.AT_LEAST_ONE(() => {
      this.OR([
        { ALT: () => this.CONSUME(Word) },
        { ALT: () => this.CONSUME(OpenQuoteWord) },
        { ALT: () => this.CONSUME(Stray) },
        { ALT: () => this.SUBRULE(this.redirect) },
      ]);
    });
  });

  redirect = this.RULE('redirect', () => {
    this.CONSUME(Redirect);
    this.OPTION(() => this.CONSUME(Word));
  });

  separator = this.RULE('separator', () => {
    this.OR([
      { ALT: () => this.CONSUME(Newline) },
      { ALT: () => this.CONSUME(Semi) },
      { ALT: () => this.CONSUME(AndAnd) },
      { ALT: () => this.CONSUME(OrOr) },
      { ALT: () => this.CONSUME(Pipe) },
      { ALT: () => this.CONSUME(Amp) },
    ]);
  });
}

export const shellParser = lazily(() => new ShellParser());

/** A word of a statement as written (quotes and escapes still in), with its 1-based line. */
export interface RawWord {
  readonly raw: string;
  readonly line: number;
  /** A quote opened in this word never closes. */
  readonly open: boolean;
}

/** Visits the CST into statements of words, in document order. */
export function toStatements(cst: CstNode): RawWord[][] {
  const statements = (cst.children.statement ?? []) as CstNode[];
  return statements
    .map((s) => {
      const tokens = [
        ...((s.children.Word ?? []) as IToken[]),
        ...((s.children.OpenQuoteWord ?? []) as IToken[]),
        ...((s.children.Stray ?? []) as IToken[]),
      ];
      return tokens
        .sort((a, b) => a.startOffset - b.startOffset)
        .map((t) => ({ raw: t.image, line: t.startLine ?? 1, open: t.tokenType === OpenQuoteWord }));
    })
    .filter((words) => words.length > 0)
    .sort((a, b) => (a[0]?.line ?? 0) - (b[0]?.line ?? 0));
}
