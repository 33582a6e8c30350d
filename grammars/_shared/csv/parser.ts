/**
 * document := (record? Newline)* record?
 * record   := field nextCell* | nextCell+      nextCell := Comma field?
 * field    := (QuotedField | CutQuotedField | PlainField | StrayQuote)+
 *
 * An EmbeddedActionsParser: rows are built during the parse (a CSV row is flat, a CST adds nothing).
 * Blank lines produce no record; the rows keep their line numbers so callers can see the gaps.
 */
import { lazily } from '../../../src/parse/lazily.js';
import { EmbeddedActionsParser, type IToken } from '../../../src/parse/chevrotain-runtime.js';
import { allTokens, Comma, CutQuotedField, Newline, PlainField, QuotedField, StrayQuote } from './tokens.js';

/** One CSV record: unquoted cell texts and the line it starts on. */
export interface CsvRow {
  readonly cells: string[];
  readonly line: number;
  /** Its last cell is cut short: the text ends inside it (a quoted cell that never closes, CutQuotedField). */
  readonly cut?: boolean;
}

class CsvParser extends EmbeddedActionsParser {
  constructor() {
    super(allTokens, { recoveryEnabled: true, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  document = this.RULE('document', (): CsvRow[] => {
    const rows: CsvRow[] = [];
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            rows.push(this.SUBRULE(this.record));
            this.OPTION(() => this.CONSUME(Newline));
          },
        },
        { ALT: () => this.CONSUME2(Newline) },
      ]);
    });
    return rows;
  });

  record = this.RULE('record', (): CsvRow => {
    const line = this.LA(1).startLine ?? 1;
    const cells: string[] = [];
    this.OR([
      {
        ALT: () => {
          cells.push(this.SUBRULE(this.field));
          this.MANY(() => cells.push(this.SUBRULE(this.nextCell)));
        },
      },
      {
        ALT: () => {
          cells.push('');
          this.AT_LEAST_ONE(() => cells.push(this.SUBRULE2(this.nextCell)));
        },
      },
    ]);
    return { cells, line };
  });

  /** `,` then an optional field: the cell after a comma (empty when none). */
  nextCell = this.RULE('nextCell', (): string => {
    this.CONSUME(Comma);
    return this.OPTION(() => this.SUBRULE(this.field)) ?? '';
  });

  field = this.RULE('field', (): string => {
    let text = '';
    this.AT_LEAST_ONE(() => {
      const t = this.OR([
        { ALT: () => this.CONSUME(QuotedField) },
        { ALT: () => this.CONSUME(CutQuotedField) },
        { ALT: () => this.CONSUME(PlainField) },
        { ALT: () => this.CONSUME(StrayQuote) },
      ]);
      text += unquote(t);
    });
    return text;
  });
}

function unquote(t: IToken): string {
  if (t.tokenType === QuotedField) return t.image.slice(1, -1).replaceAll('""', '"');
  if (t.tokenType === CutQuotedField) return t.image.slice(1).replaceAll('""', '"');
  return t.image;
}

/** The singleton parser: Chevrotain parsers are built once and reset through `input`. */
export const csvParser = lazily(() => new CsvParser());
