import { lazily } from '../../../src/parse/lazily.js';
import { createToken, type CustomPatternMatcherReturn, Lexer } from '../../../src/parse/chevrotain-runtime.js';

/** RFC 4180 CSV as Python's `csv` module writes it; CR is already removed by ingest. */
export const Comma = createToken({ name: 'Comma', pattern: /,/ });
/** `"1,146.31"`, `"say ""hi"""`: may span lines. */
export const QuotedField = createToken({ name: 'QuotedField', pattern: /"(?:[^"]|"")*"/, line_breaks: true });
/**
 * `"{10: 3.51, 25: 3.5` that never closes: a file cut inside a quoted field (the last thing in its
 * text), one field cut short, not fields split at its commas.
 */
export const CutQuotedField = createToken({ name: 'CutQuotedField', pattern: { exec: cutQuotedField }, line_breaks: true, start_chars_hint: ['"'] });
export const PlainField = createToken({ name: 'PlainField', pattern: /[^,"\n]+/ });
/** A stray quote inside a plain field (`5"`): kept as text rather than failing the line. */
export const StrayQuote = createToken({ name: 'StrayQuote', pattern: /"/ });
export const Newline = createToken({ name: 'Newline', pattern: /\n/, line_breaks: true });

export const allTokens = [Comma, QuotedField, CutQuotedField, PlainField, StrayQuote, Newline];

const QUOTE = 34;
const COMMA = 44;
const NEWLINE = 10;

/**
 * A quote that starts a field, some text and no quote after it: the rest of the text (tried only
 * where QuotedField did not match). A quote alone at the end is a StrayQuote (which Chevrotain's
 * lexer checks: one matched by an earlier token would be unreachable).
 */
function cutQuotedField(text: string, offset: number): CustomPatternMatcherReturn | null {
  if (text.charCodeAt(offset) !== QUOTE || offset + 1 >= text.length || text.indexOf('"', offset + 1) >= 0) return null;
  const before = offset === 0 ? NEWLINE : text.charCodeAt(offset - 1);
  return before === COMMA || before === NEWLINE ? [text.slice(offset)] : null;
}

export const csvLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false }));
