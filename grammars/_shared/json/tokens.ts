import { lazily } from '../../../src/parse/lazily.js';
import { createToken, Lexer } from '../../../src/parse/chevrotain-runtime.js';
import { complementHint } from '../../../src/parse/chevrotain.js';

/**
 * JSON as benchmark tools really write it: strict JSON plus Python's `Infinity`, `-Infinity` and
 * `NaN` (SGLang JSONL), several documents appended back to back (`--append-result`, JSONL).
 */
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\n\r]+/, group: Lexer.SKIPPED, line_breaks: true });
export const LCurly = createToken({ name: 'LCurly', pattern: '{' });
export const RCurly = createToken({ name: 'RCurly', pattern: '}' });
export const LSquare = createToken({ name: 'LSquare', pattern: '[' });
export const RSquare = createToken({ name: 'RSquare', pattern: ']' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });
export const Colon = createToken({ name: 'Colon', pattern: ':' });
export const StringLiteral = createToken({ name: 'StringLiteral', pattern: /"(?:[^\\"\n]|\\.)*"/ });
export const NumberLiteral = createToken({
  name: 'NumberLiteral',
  pattern: /-?(?:Infinity|(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/,
});
export const True = createToken({ name: 'True', pattern: 'true' });
export const False = createToken({ name: 'False', pattern: 'false' });
export const Null = createToken({ name: 'Null', pattern: 'null' });
export const NaN_ = createToken({ name: 'NaN', pattern: 'NaN' });
/** Anything else up to a delimiter: kept as a token so the lexer never stops; the parser rejects it. */
export const Garbage = createToken({ name: 'Garbage', pattern: /[^\s{}[\],:"]+|"/, start_chars_hint: complementHint('{}[],:') });

export const allTokens = [WhiteSpace, LCurly, RCurly, LSquare, RSquare, Comma, Colon, StringLiteral, NumberLiteral, True, False, Null, NaN_, Garbage];

export const jsonLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: true }));
