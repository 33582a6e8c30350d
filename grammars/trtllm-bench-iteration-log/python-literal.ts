import { setCell } from '../../src/core/cells.js';
import type { JsonObject, JsonValue } from '../_shared/json/index.js';

/**
 * Reads one Python literal as `repr()` / `f"{value}"` prints it: dicts, lists, tuples, strings in
 * either quote, ints, floats (`inf`, `nan` too), `True`, `False`, `None`. trtllm-bench's iteration
 * writer prints each statistics dict this way, one a line (`tensorrt_llm/bench/benchmark/utils/
 * processes.py`), so the JSON reader cannot read it: single quotes, `True`, `None`.
 *
 * Plain code, not a Chevrotain lexer: a line is one value with a handful of token kinds, and a
 * long log has one such line per engine iteration, so the reader must make no token objects.
 */
export type LiteralResult =
  | { readonly ok: true; readonly value: JsonValue }
  /** `at`: index in the text where reading stopped; `expected`: what should have been there. */
  | { readonly ok: false; readonly at: number; readonly expected: string };

/** Deeper than any statistics dict (three levels): a line nested deeper is no iteration record. */
const MAX_DEPTH = 32;

const NUMBER = /[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/y;
const WORD = /[A-Za-z_]+/y;

/** The words a repr prints for values that are not numbers or strings. */
const WORDS: ReadonlyMap<string, JsonValue> = new Map<string, JsonValue>([
  ['True', true],
  ['False', false],
  ['None', null],
  ['inf', Number.POSITIVE_INFINITY],
  ['nan', Number.NaN],
]);

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['0', '\0'],
  ['\\', '\\'],
  ["'", "'"],
  ['"', '"'],
]);

/** Thrown inside the reader only, caught in parsePythonLiteral: a failure, not a crash. */
class Stop {
  readonly at: number;
  readonly expected: string;

  constructor(at: number, expected: string) {
    this.at = at;
    this.expected = expected;
  }
}

/** The literal that starts at `from` in `text`; what follows it on the line must be blank. */
export function parsePythonLiteral(text: string, from = 0): LiteralResult {
  const reader = new LiteralReader(text, from);
  try {
    const value = reader.value(0);
    reader.end();
    return { ok: true, value };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, at: e.at, expected: e.expected };
    throw e;
  }
}

class LiteralReader {
  readonly text: string;
  #i: number;

  constructor(text: string, from: number) {
    this.text = text;
    this.#i = from;
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new Stop(this.#i, `a value nested at most ${MAX_DEPTH} levels deep`);
    this.#blank();
    const c = this.text[this.#i];
    if (c === '{') return this.#dict(depth);
    if (c === '[') return this.#sequence(']', depth);
    if (c === '(') return this.#sequence(')', depth);
    if (c === "'" || c === '"') return this.#string(c);
    return this.#scalar();
  }

  /** Only blanks may follow the literal. */
  end(): void {
    this.#blank();
    if (this.#i < this.text.length) throw new Stop(this.#i, 'the end of the line after the record');
  }

  #dict(depth: number): JsonObject {
    const out: JsonObject = {};
    this.#i++;
    this.#blank();
    if (this.text[this.#i] === '}') {
      this.#i++;
      return out;
    }
    for (;;) {
      const key = this.value(depth + 1);
      if (key === null || typeof key === 'object') throw new Stop(this.#i, 'a dict key');
      this.#expect(':');
      setCell(out, String(key), this.value(depth + 1));
      if (this.#closes('}')) return out;
    }
  }

  #sequence(close: string, depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.#i++;
    this.#blank();
    if (this.text[this.#i] === close) {
      this.#i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      if (this.#closes(close)) return out;
      // a one-element tuple prints a trailing comma: `(1,)`
      this.#blank();
      if (this.text[this.#i] === close) {
        this.#i++;
        return out;
      }
    }
  }

  /** After an element: true at the container's close, false after a comma (another element follows). */
  #closes(close: string): boolean {
    this.#blank();
    const c = this.text[this.#i];
    if (c === close) {
      this.#i++;
      return true;
    }
    if (c === ',') {
      this.#i++;
      return false;
    }
    throw new Stop(this.#i, `"," or "${close}"`);
  }

  #string(quote: string): string {
    const text = this.text;
    let i = this.#i + 1;
    let out = '';
    let from = i;
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new Stop(i, `the closing ${quote} of a string`);
      if (c === quote) break;
      if (c !== '\\') {
        i++;
        continue;
      }
      out += text.slice(from, i);
      const e = text[i + 1];
      if (e === undefined) throw new Stop(i, `the closing ${quote} of a string`);
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex > 0) {
        const digits = text.slice(i + 2, i + 2 + hex);
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) throw new Stop(i, `${hex} hex digits after \\${e}`);
        out += String.fromCodePoint(Number.parseInt(digits, 16));
        i += 2 + hex;
      } else {
        out += ESCAPES.get(e) ?? `\\${e}`;
        i += 2;
      }
      from = i;
    }
    this.#i = i + 1;
    return out + text.slice(from, i);
  }

  #scalar(): JsonValue {
    const text = this.text;
    const at = this.#i;
    const negative = text[at] === '-';
    WORD.lastIndex = negative ? at + 1 : at;
    const word = WORD.exec(text);
    if (word !== null) {
      const value = WORDS.get(word[0]);
      if (value === undefined || (negative && typeof value !== 'number')) throw new Stop(at, 'a value');
      this.#i = WORD.lastIndex;
      return negative ? -(value as number) : value;
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number === null) throw new Stop(at, 'a value');
    this.#i = NUMBER.lastIndex;
    return Number(number[0]);
  }

  #expect(c: string): void {
    this.#blank();
    if (this.text[this.#i] !== c) throw new Stop(this.#i, `"${c}"`);
    this.#i++;
  }

  #blank(): void {
    const text = this.text;
    while (text[this.#i] === ' ' || text[this.#i] === '\t') this.#i++;
  }
}
