import type { IToken } from './chevrotain-runtime.js';

/**
 * Long sources are lexed and parsed a piece of a few thousand lines at a time: a whole-document
 * lexer holds a token per line or cell of the whole, some 15 to 50 times the text (a 20 MB CSV
 * took 1.3 GB, a 250 MB paste of result blocks ran out of heap). Each grammar cuts only before a
 * line where its parse of the whole would start afresh too (a section or block header, a record
 * boundary), so the pieces give what the whole gives.
 */
export const PIECE_LINES = 4096;
/** A piece with no place to cut ends here anyway: no real report or table is this long. */
export const MAX_PIECE_LINES = 64 * PIECE_LINES;

/**
 * The sizes in use: the tests compare pieces of a few lines, cut wherever a grammar allows, with
 * one piece of the whole source (test/parse/pieces.test.ts). Nothing else changes them.
 */
export const pieceLines = { min: PIECE_LINES, max: MAX_PIECE_LINES };

/** One piece of a source: its tokens, numbered (line, offset) as in the whole source's text. */
export interface Piece {
  readonly tokens: IToken[];
  /** Index of its first line in the source. */
  readonly start: number;
  /** Index past its last line. */
  readonly end: number;
}

/**
 * The pieces of `lines`, lexed one at a time. A piece ends before the first line, from PIECE_LINES
 * on, for which `cutsBefore(i)` holds (asked about increasing indexes only, so it may keep state
 * as it reads the lines), or at MAX_PIECE_LINES (see pieceLines). `text` turns a line into what is
 * lexed (a grammar's own clean-up), `lex` lexes a piece's text.
 */
export function* lexedPieces(
  lines: readonly string[],
  cutsBefore: (i: number) => boolean,
  lex: (text: string) => { tokens: IToken[] },
  text: (line: string) => string = (line) => line,
): Generator<Piece> {
  let offset = 0;
  for (let start = 0; start < lines.length; ) {
    const end = pieceEnd(lines.length, start, cutsBefore);
    const pieceText = lines.slice(start, end).map(text).join('\n');
    const { tokens } = lex(pieceText);
    if (start > 0) for (const t of tokens) moveDown(t, start, offset);
    yield { tokens, start, end };
    offset += pieceText.length + 1;
    start = end;
  }
}

/** Where the piece from line index `start` ends (exclusive). */
export function pieceEnd(count: number, start: number, cutsBefore: (i: number) => boolean): number {
  const last = Math.min(count, start + pieceLines.max);
  for (let i = start + pieceLines.min; i < last; i++) if (cutsBefore(i)) return i;
  return last;
}

/** A token lexed from a piece, numbered as in the whole source. */
function moveDown(t: IToken, lines: number, offset: number): void {
  if (t.startLine !== undefined) t.startLine += lines;
  if (t.endLine !== undefined) t.endLine += lines;
  t.startOffset += offset;
  if (t.endOffset !== undefined) t.endOffset += offset;
}

/**
 * Runs `parse` on a Chevrotain parser given `tokens`, and lets go of them afterwards: the parsers
 * are singletons, and one keeps its last input (a whole file's tokens, a gigabyte for a 20 MB CSV)
 * until it parses again. Read what the parse reports (its `errors`) inside `parse`.
 */
export function parseTokens<P extends { input: IToken[] }, R>(parser: P, tokens: IToken[], parse: (parser: P) => R): R {
  parser.input = tokens;
  try {
    return parse(parser);
  } finally {
    parser.input = [];
  }
}
