import { lazily } from '../../src/parse/lazily.js';
import { createToken, Lexer } from '../../src/parse/chevrotain-runtime.js';

/**
 * Shell words and the operators that end a simple command (formats: shell scripts, README fences,
 * logs that echo the command). A word is a run of bare characters, quoted strings and escapes,
 * so `--speculative-config='{"method": "eagle3"}'` is ONE word. Order matters: first match wins.
 */
export const Continuation = createToken({ name: 'Continuation', pattern: /\\\r?\n/, line_breaks: true, group: Lexer.SKIPPED });
export const Blank = createToken({ name: 'Blank', pattern: /[ \t\f\v]+/, group: Lexer.SKIPPED });
/** `# ...` to the end of the line; only where a word could start (inside a word `#` is text). */
export const Comment = createToken({ name: 'Comment', pattern: /#[^\n]*/, group: Lexer.SKIPPED });
export const Newline = createToken({ name: 'Newline', pattern: /\r?\n/, line_breaks: true });
export const AndAnd = createToken({ name: 'AndAnd', pattern: /&&/ });
export const OrOr = createToken({ name: 'OrOr', pattern: /\|\|/ });
export const Pipe = createToken({ name: 'Pipe', pattern: /\|&?/ });
export const Semi = createToken({ name: 'Semi', pattern: /;;?/ });
/** `>`, `>>`, `2>&1`, `&>`, `<`, `<<`: the target (if any) is the next word. */
export const Redirect = createToken({ name: 'Redirect', pattern: /\d*(?:>>?|<<?|&>>?)(?:&\d*-?)?/ });
export const Amp = createToken({ name: 'Amp', pattern: /&/ });

const BARE_START = String.raw`[^\s'"\\;&|<>#]`;
const BARE = String.raw`[^\s'"\\;&|<>]`;
const SINGLE = String.raw`'[^']*'`;
const DOUBLE = String.raw`"(?:[^"\\]|\\[\s\S])*"`;
const ESCAPE = String.raw`\\[^\n]`;
/** `$((C * 10))` and `$(nproc)`: kept whole, spaces included (one level of parentheses). */
const SUBST = String.raw`\$\(\([^()\n]*\)\)|\$\([^()\n]*\)`;
const PART = `(?:${SUBST}|${BARE}|${SINGLE}|${DOUBLE}|${ESCAPE})`;
const FIRST = `(?:${SUBST}|${BARE_START}|${SINGLE}|${DOUBLE}|${ESCAPE})`;

export const Word = createToken({ name: 'Word', pattern: new RegExp(`${FIRST}${PART}*`), line_breaks: true });
/** A word whose quote never closes: it runs to the end of the text (a diagnostic says so). */
export const OpenQuoteWord = createToken({
  name: 'OpenQuoteWord',
  pattern: new RegExp(`(?:${BARE}|${SINGLE}|${DOUBLE}|${ESCAPE})*['"][\\s\\S]*`),
  line_breaks: true,
});
/** A lone backslash (at the very end of the text, say): kept as text. */
export const Stray = createToken({ name: 'Stray', pattern: /\\/ });

export const allTokens = [Continuation, Blank, Comment, Newline, AndAnd, OrOr, Pipe, Semi, Redirect, Amp, Word, OpenQuoteWord, Stray];

export const shellLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'onlyStart', ensureOptimizations: false }));
