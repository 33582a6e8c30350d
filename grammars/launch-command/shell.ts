import { shellParser, toStatements, type RawWord } from './parser.js';
import { shellLexer } from './tokens.js';
import { parseTokens } from '../../src/parse/pieces.js';

export type { RawWord } from './parser.js';

/**
 * Lexes and parses shell text into statements (simple commands) of raw words. `firstLine` is the
 * file line of the text's first line, so every word keeps its own line through `\` continuations.
 * Total: the lexer's catch-all tokens accept any text and the parser recovers.
 */
export function shellStatements(text: string, firstLine: number): RawWord[][] {
  const cst = parseTokens(shellParser(), shellLexer().tokenize(text).tokens, (p) => p.script());
  return toStatements(cst).map((words) => words.map((w) => ({ raw: w.raw, line: w.line + firstLine - 1, open: w.open })));
}
