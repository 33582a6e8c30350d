/**
 * The grammar of a result printed as a first line and one line per statistic below it:
 *
 * document := (result | line)*
 * result   := Head Newline? (stat Newline? | Newline)*
 *             — ends at the first line that is neither a statistic nor blank
 * line     := (stat | Other) Newline? | Newline
 * stat     := one of the statistic tokens
 *
 * A statistic after an interleaved line is a loose `line`; groupResults gives it to the result above.
 */
import { lazily } from '../../../src/parse/lazily.js';
import { CstParser, type CstNode, type IToken, Lexer, type TokenType } from '../../../src/parse/chevrotain-runtime.js';

/** A format's line tokens: each matches one whole line (src/parse/chevrotain.ts, lineToken). */
export interface ResultTokens {
  /** A result's first line (`Avg latency:`, `Throughput:`). */
  readonly head: TokenType;
  /** The lines of its statistics. */
  readonly stats: readonly TokenType[];
  /** Any other line (matches every line: listed last). */
  readonly other: TokenType;
  readonly newline: TokenType;
}

/** A parser and a lexer for a format's tokens, each built on first use. */
export interface ResultGrammar {
  readonly tokens: ResultTokens;
  /** Whether a line is a result's first line: where a long source is cut into pieces. */
  readonly startsResult: (line: string) => boolean;
  readonly lexer: () => Lexer;
  readonly parser: () => { input: IToken[]; document(): CstNode };
}

export function resultGrammar(tokens: ResultTokens, startsResult: (line: string) => boolean): ResultGrammar {
  const { head, stats, other, newline } = tokens;
  const all = [head, ...stats, other, newline];

  class ResultLinesParser extends CstParser {
    constructor() {
      super(all, { recoveryEnabled: true, nodeLocationTracking: 'onlyOffset', maxLookahead: 1 });
      this.performSelfAnalysis();
    }

    document = this.RULE('document', () => {
      this.MANY(() => {
        this.OR([{ ALT: () => this.SUBRULE(this.result) }, { ALT: () => this.SUBRULE(this.line) }]);
      });
    });

    result = this.RULE('result', () => {
      this.CONSUME(head);
      this.OPTION(() => this.CONSUME(newline));
      this.MANY(() => {
        this.OR([
          {
            ALT: () => {
              this.SUBRULE(this.stat);
              this.OPTION2(() => this.CONSUME2(newline));
            },
          },
          { ALT: () => this.CONSUME3(newline) },
        ]);
      });
    });

    line = this.RULE('line', () => {
      this.OR([
        {
          ALT: () => {
            this.OR2([{ ALT: () => this.SUBRULE(this.stat) }, { ALT: () => this.CONSUME(other) }]);
            this.OPTION(() => this.CONSUME(newline));
          },
        },
        { ALT: () => this.CONSUME2(newline) },
      ]);
    });

    stat = this.RULE('stat', () => {
      this.OR(stats.map((t) => ({ ALT: () => this.CONSUME(t) })));
    });
  }

  return {
    tokens,
    startsResult,
    lexer: lazily(() => new Lexer(all, { positionTracking: 'onlyStart', ensureOptimizations: false, skipValidations: true })),
    parser: lazily(() => new ResultLinesParser()),
  };
}
