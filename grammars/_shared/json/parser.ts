/**
 * documents := value*
 * value     := object | array | StringLiteral | NumberLiteral | true | false | null | NaN
 * object    := "{" (pair ("," pair)*)? "}"        pair := StringLiteral ":" value
 * array     := "[" (value ("," value)*)? "]"
 *
 * An EmbeddedActionsParser (values built during the parse) rather than CST + visitor: result
 * JSON carries per-request arrays of tens of thousands of numbers, and a CST node per number
 * would cost several times the memory of the value itself (see docs/architecture.md).
 */
import { lazily } from '../../../src/parse/lazily.js';
import { EmbeddedActionsParser, type IToken } from '../../../src/parse/chevrotain-runtime.js';
import * as T from './tokens.js';
import { setCell } from '../../../src/core/cells.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Line of each key of an object, for provenance. */
export const keyLines = new WeakMap<object, Record<string, number>>();

export interface JsonDocument {
  readonly value: JsonValue;
  readonly line: number;
  /** Read from a document the file ends inside, up to its last whole value (cut-document.ts). */
  readonly cut?: true;
}

/** A key an object had twice: the grammar kept its first value (JSON.parse would keep the last). */
export interface RepeatedKey {
  readonly key: string;
  readonly line: number;
  readonly firstLine: number;
}

class JsonParser extends EmbeddedActionsParser {
  /** The repeated keys met since this was last emptied (parseWithGrammar reports them). */
  readonly repeatedKeys: RepeatedKey[] = [];

  constructor() {
    super(T.allTokens, { recoveryEnabled: true, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  documents = this.RULE('documents', (): JsonDocument[] => {
    const docs: JsonDocument[] = [];
    this.MANY(() => {
      const line = this.LA(1).startLine ?? 1;
      const value = this.SUBRULE(this.value);
      docs.push({ value, line });
    });
    return docs;
  });

  value = this.RULE('value', (): JsonValue => {
    return this.OR([
      { ALT: () => this.SUBRULE(this.object) },
      { ALT: () => this.SUBRULE(this.array) },
      { ALT: () => decodeString(this.CONSUME(T.StringLiteral)) },
      { ALT: () => decodeNumber(this.CONSUME(T.NumberLiteral)) },
      { ALT: () => (this.CONSUME(T.True), true) },
      { ALT: () => (this.CONSUME(T.False), false) },
      { ALT: () => (this.CONSUME(T.Null), null) },
      { ALT: () => (this.CONSUME(T.NaN_), null) },
    ]);
  });

  object = this.RULE('object', (): { [key: string]: JsonValue } => {
    const out: { [key: string]: JsonValue } = {};
    const lines: Record<string, number> = {};
    this.CONSUME(T.LCurly);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const keyToken = this.CONSUME(T.StringLiteral);
        this.CONSUME(T.Colon);
        const value = this.SUBRULE(this.value);
        this.ACTION(() => {
          const key = decodeString(keyToken);
          if (!Object.hasOwn(out, key)) {
            setCell(out, key, value);
            setCell(lines, key, keyToken.startLine ?? 0);
          } else this.repeatedKeys.push({ key, line: keyToken.startLine ?? 0, firstLine: lines[key] ?? 0 });
        });
      },
    });
    this.CONSUME(T.RCurly);
    this.ACTION(() => keyLines.set(out, lines));
    return out;
  });

  array = this.RULE('array', (): JsonValue[] => {
    const out: JsonValue[] = [];
    this.CONSUME(T.LSquare);
    this.MANY_SEP({ SEP: T.Comma, DEF: () => out.push(this.SUBRULE(this.value)) });
    this.CONSUME(T.RSquare);
    return out;
  });
}

function decodeString(token: IToken): string {
  try {
    return JSON.parse(token.image) as string;
  } catch {
    return token.image.slice(1, -1);
  }
}

function decodeNumber(token: IToken): number {
  return Number(token.image);
}

export const jsonParser = lazily(() => new JsonParser());
