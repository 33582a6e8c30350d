import { type JsonDocument, type JsonValue, keyLines } from './parser.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, NEWLINE, OPEN_BRACE, OPEN_BRACKET, QUOTE, RETURN, SPACE, TAB } from './char-codes.js';

/**
 * The grammar's result without the grammar: JSON.parse is many times faster than tokenizing, and
 * needs a small fraction of the memory (a token object per number of a per-request array would
 * take some 50 times the text's size). Both functions return null, and the caller falls back,
 * for what JSON.parse would read differently from the grammar: a duplicated key (JSON.parse keeps
 * the last value, the grammar the first) or a `__proto__` key. Python's `NaN` and `Infinity`,
 * which the grammar accepts, are read as the grammar reads them (null and ±Infinity).
 */

/** Sources whose every non-blank line is a whole document (one-line result files, JSON Lines). */
export function parseStrictJsonLines(lines: readonly string[]): JsonDocument[] | null {
  const docs: JsonDocument[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (isBlank(text)) continue;
    const doc = documentOf(text, i + 1);
    if (doc === null) return null;
    docs.push(doc);
  }
  return docs;
}

/** Sources that are one document over many lines (pretty-printed), blank lines around it allowed. */
export function parseWholeJson(lines: readonly string[]): JsonDocument[] | null {
  const doc = documentOf(lines.join('\n'), 1);
  return doc === null ? null : [doc];
}

/**
 * One document that starts on line `firstLine` of `text`, with the line of every key recorded as
 * the grammar records it; null when `text` is not one document JSON.parse reads as the grammar does.
 */
export function documentOf(text: string, firstLine: number): JsonDocument | null {
  const value = parseLenient(text);
  // a bare string or number is not a document to the grammar: it reports such a line as stray
  if (value === undefined || value === null || typeof value !== 'object') return null;
  const scan = new KeyLineScan(text, firstLine);
  try {
    scan.skipSpace();
    const line = scan.line;
    return scan.value(value) ? { value, line } : null;
  } catch {
    // nesting deeper than the stack: the grammar's turn (it reports what it cannot read)
    return null;
  }
}

const PYTHON_CONSTANT = /NaN|Infinity/;
/** A string literal (kept as it is), or NaN / ±Infinity where a value stands. */
const PYTHON_CONSTANTS = /"(?:[^"\\]|\\.)*"|([[:,]\s*)(-?Infinity|NaN)(?=\s*[\]},])/g;

/** JSON.parse, then once more with Python's constants written as JSON: undefined when neither reads. */
function parseLenient(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    if (!PYTHON_CONSTANT.test(text)) return undefined;
  }
  const strict = text.replace(PYTHON_CONSTANTS, (match: string, before?: string, constant?: string) =>
    constant === undefined ? match : `${before}${constant === 'NaN' ? 'null' : constant.replace('Infinity', '1e999')}`,
  );
  try {
    return JSON.parse(strict) as JsonValue;
  } catch {
    return undefined;
  }
}

/** What KeyLineScan's string walk met: a literal without escapes, one with, or no literal. */
const PLAIN = 0;
const ESCAPED = 1;
const NOT_A_STRING = -1;

/** Spaces, tabs and line breaks only (JSON's whitespace). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== RETURN && c !== NEWLINE) return false;
  }
  return true;
}

/** The first character after an array's `[` that a flat array's text may not hold, or its `]`. */
const FLAT_END = /[\]"{[]/g;

/** True when no element is a string, an array or an object: the array's text cannot hold a `]` before its end. */
function holdsNoBrackets(a: readonly JsonValue[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (typeof v === 'string' || (typeof v === 'object' && v !== null)) return false;
  }
  return true;
}

/**
 * Documents nested deeper than this are left to the grammar, which skips them with a diagnostic:
 * its parser recurses once per level (a few thousand overflow the stack, sooner or later
 * depending on the stack in use), and no benchmark writes more than a handful.
 */
export const MAX_NESTING = 256;

/**
 * Walks JSON text that JSON.parse has read, alongside the value it gave, and records the line of
 * every object's keys (keyLines). False when the text has a key twice in one object or a
 * `__proto__` key, where the grammar's value differs from JSON.parse's.
 */
class KeyLineScan {
  #i = 0;
  #depth = 0;
  line: number;
  readonly #text: string;

  constructor(text: string, firstLine: number) {
    this.#text = text;
    this.line = firstLine;
  }

  skipSpace(): void {
    const text = this.#text;
    let i = this.#i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === NEWLINE) this.line++;
      else if (c !== SPACE && c !== TAB && c !== RETURN) break;
      i++;
    }
    this.#i = i;
  }

  /**
   * The text's structure must be the value's at every step: a key given twice makes them part.
   * False past MAX_NESTING levels, as the grammar skips such a document.
   */
  value(v: JsonValue): boolean {
    this.skipSpace();
    const c = this.#text.charCodeAt(this.#i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (this.#depth >= MAX_NESTING) return false;
      this.#depth++;
      const same = c === OPEN_BRACE ? typeof v === 'object' && v !== null && !Array.isArray(v) && this.#object(v) : Array.isArray(v) && this.#array(v);
      this.#depth--;
      return same;
    }
    if (c === QUOTE) return typeof v === 'string' && this.#string() !== NOT_A_STRING;
    this.#scalar();
    return v === null || typeof v === 'number' || typeof v === 'boolean';
  }

  #object(o: { [key: string]: JsonValue }): boolean {
    const text = this.#text;
    const lines: Record<string, number> = {};
    this.#i++;
    for (;;) {
      this.skipSpace();
      if (text.charCodeAt(this.#i) === CLOSE_BRACE) break;
      const start = this.#i;
      const kind = this.#string();
      if (kind === NOT_A_STRING) return false;
      const key = kind === PLAIN ? text.slice(start + 1, this.#i - 1) : (JSON.parse(text.slice(start, this.#i)) as string);
      if (key === '__proto__' || Object.hasOwn(lines, key)) return false;
      lines[key] = this.line;
      this.skipSpace();
      if (text.charCodeAt(this.#i++) !== COLON || !this.value(o[key] as JsonValue) || !this.#next(CLOSE_BRACE)) return false;
    }
    this.#i++;
    keyLines.set(o, lines);
    return true;
  }

  #array(a: JsonValue[]): boolean {
    const text = this.#text;
    if (holdsNoBrackets(a)) {
      // numbers and constants only (a per-request array): nothing in it has a key; the text is
      // checked to hold no string or bracket before its first `]`, which then ends it
      FLAT_END.lastIndex = this.#i + 1;
      const m = FLAT_END.exec(text);
      if (m === null || m[0] !== ']') return false;
      const end = m.index;
      for (let n = text.indexOf('\n', this.#i); n !== -1 && n < end; n = text.indexOf('\n', n + 1)) this.line++;
      this.#i = end + 1;
      return true;
    }
    let k = 0;
    this.#i++;
    for (;;) {
      this.skipSpace();
      if (text.charCodeAt(this.#i) === CLOSE_BRACKET) break;
      if (!this.value(a[k++] as JsonValue) || !this.#next(CLOSE_BRACKET)) return false;
    }
    this.#i++;
    return true;
  }

  /** After a value: moves past a comma, or stays before the closing bracket; false at anything else. */
  #next(close: number): boolean {
    this.skipSpace();
    const c = this.#text.charCodeAt(this.#i);
    if (c === COMMA) this.#i++;
    return c === COMMA || c === close;
  }

  /**
   * Moves past a string literal: PLAIN when it has no escapes (its text is its value). The walk
   * checks what it meets (NOT_A_STRING), so text that JSON.parse read differently cannot send it past the end.
   */
  #string(): number {
    const text = this.#text;
    if (text.charCodeAt(this.#i) !== QUOTE) return NOT_A_STRING;
    let i = this.#i + 1;
    let kind = PLAIN;
    for (;;) {
      if (i >= text.length) return NOT_A_STRING;
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        kind = ESCAPED;
        i++;
      }
      i++;
    }
    this.#i = i + 1;
    return kind;
  }

  /** Moves past a number, `true`, `false`, `null`, `NaN` or `-Infinity`. */
  #scalar(): void {
    const text = this.#text;
    let i = this.#i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === SPACE || c === NEWLINE || c === TAB || c === RETURN || Number.isNaN(c)) break;
      i++;
    }
    this.#i = i;
  }
}
