import { lazily } from '../../../src/parse/lazily.js';
import { createToken, Lexer } from '../../../src/parse/chevrotain-runtime.js';

/** RFC 4180 CSV as Python's `csv` module writes it; CR is already removed by ingest. */
export const Comma = createToken({ name: 'Comma', pattern: /,/ });
/** `"1,146.31"`, `"say ""hi"""`: may span lines. */
export const QuotedField = createToken({ name: 'QuotedField', pattern: /"(?:[^"]|"")*"/, line_breaks: true });
export const PlainField = createToken({ name: 'PlainField', pattern: /[^,"\n]+/ });
/** A stray quote inside a plain field (`5"`): kept as text rather than failing the line. */
export const StrayQuote = createToken({ name: 'StrayQuote', pattern: /"/ });
export const Newline = createToken({ name: 'Newline', pattern: /\n/, line_breaks: true });

export const allTokens = [Comma, QuotedField, PlainField, StrayQuote, Newline];

export const csvLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false }));
