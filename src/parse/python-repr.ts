/**
 * A reader for Python reprs as they appear in logs: `Namespace(a=1, b='x')`, dict reprs
 * (`{'tensor_parallel_size': 2}`), `SpeculativeConfig(method='eagle3', ...)`, engine-config lists
 * (`model='m', dtype=torch.bfloat16, ...`). Total: unknown shapes come back as raw strings.
 */
import { setCell } from '../core/cells.js';

export type PyValue = null | boolean | number | string | PyValue[] | { [key: string]: PyValue };

/** Parses `key=value, key=value` (the inside of a call) into an object. */
export function parseKeywordArgs(text: string): Record<string, PyValue> {
  const r = new Reader(text);
  return r.kwargs(null);
}

/** Parses one Python literal (dict, list, string, number, call). */
export function parsePyValue(text: string): PyValue {
  return new Reader(text.trim()).value();
}

const FLAT_KEY = /'([^'\\]*)': /y;
const FLAT_NUMBER = /-?\d+(?:\.\d+)?(?=[,}])/y;

/**
 * `{'num_ctx_requests': 1, 'num_ctx_tokens': 2048}`: a dict of quoted keys and plain numbers, read
 * as parsePyValue reads it (a key given twice keeps its first place and its last value), or null
 * for any other text. TensorRT-LLM logs one on every iteration line; a property test checks both agree.
 */
export function flatNumberDict(text: string): Record<string, number> | null {
  if (text.charCodeAt(0) !== OPEN_BRACE || text.charCodeAt(text.length - 1) !== CLOSE_BRACE) return null;
  const out: Record<string, number> = {};
  let pos = 1;
  if (text.length === 2) return out;
  for (;;) {
    FLAT_KEY.lastIndex = pos;
    const key = FLAT_KEY.exec(text);
    if (key === null) return null;
    FLAT_NUMBER.lastIndex = pos = FLAT_KEY.lastIndex;
    const number = FLAT_NUMBER.exec(text);
    if (number === null) return null;
    setCell(out, key[1] as string, Number(number[0]));
    pos = FLAT_NUMBER.lastIndex;
    if (pos === text.length - 1) return out;
    if (!text.startsWith(', ', pos)) return null;
    pos += 2;
  }
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * Nesting read as values at most; deeper, a value is kept as its text. Reprs in logs nest a few
 * levels; a hostile line nested thousands deep overflowed the stack and cost its file's runs.
 */
const MAX_DEPTH = 64;

class Reader {
  pos = 0;
  depth = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  kwargs(close: string | null): Record<string, PyValue> {
    const out: Record<string, PyValue> = {};
    let guard = 0;
    while (this.pos < this.s.length && guard++ < 100_000) {
      this.ws();
      if (close !== null && this.s[this.pos] === close) {
        this.pos++;
        break;
      }
      const key = /^[A-Za-z_][\w.]*(?=\s*=)/.exec(this.s.slice(this.pos, this.pos + 200));
      if (key) {
        this.pos += key[0].length;
        this.ws();
        this.pos++; // '='
        this.ws();
        setCell(out, key[0], this.value(close === null ? ',' : `,${close}`));
      } else {
        this.value(close === null ? ',' : `,${close}`); // positional argument: skipped
      }
      this.ws();
      if (this.s[this.pos] === ',') this.pos++;
    }
    return out;
  }

  value(stops = ','): PyValue {
    this.ws();
    const c = this.s[this.pos];
    if (c === undefined) return null;
    if (c === "'" || c === '"') return this.str(c);
    if (c === '<') return this.opaque('<', '>');
    // past MAX_DEPTH the rest of a value is one raw string (bare reads nesting without recursing)
    if (this.depth >= MAX_DEPTH) return this.bare(stops);
    this.depth++;
    try {
      if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')');
      if (c === '{') return this.dict();
      const call = /^[A-Za-z_][\w.]*\(/.exec(this.s.slice(this.pos, this.pos + 200));
      if (call) {
        this.pos += call[0].length;
        return this.kwargs(')');
      }
    } finally {
      this.depth--;
    }
    return this.bare(stops);
  }

  str(quote: string): string {
    let out = '';
    this.pos++;
    while (this.pos < this.s.length) {
      const ch = this.s[this.pos++];
      if (ch === '\\' && this.pos < this.s.length) {
        const next = this.s[this.pos++];
        out += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
      } else if (ch === quote) {
        return out;
      } else {
        out += ch;
      }
    }
    return out;
  }

  list(close: string): PyValue[] {
    const out: PyValue[] = [];
    this.pos++;
    let guard = 0;
    while (this.pos < this.s.length && guard++ < 1_000_000) {
      this.ws();
      if (this.s[this.pos] === close) {
        this.pos++;
        break;
      }
      out.push(this.value(`,${close}`));
      this.ws();
      if (this.s[this.pos] === ',') this.pos++;
      else if (this.s[this.pos] !== close) break;
    }
    return out;
  }

  dict(): { [key: string]: PyValue } {
    const out: { [key: string]: PyValue } = {};
    this.pos++;
    let guard = 0;
    while (this.pos < this.s.length && guard++ < 100_000) {
      this.ws();
      if (this.s[this.pos] === '}') {
        this.pos++;
        break;
      }
      const key = this.value(':}');
      this.ws();
      if (this.s[this.pos] !== ':') break;
      this.pos++;
      setCell(out, String(key), this.value(',}'));
      this.ws();
      if (this.s[this.pos] === ',') this.pos++;
    }
    return out;
  }

  opaque(open: string, close: string): string {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.s.length) {
      const ch = this.s[this.pos++];
      if (ch === open) depth++;
      else if (ch === close && --depth === 0) break;
    }
    return this.s.slice(start, this.pos);
  }

  bare(stops: string): PyValue {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.s.length) {
      const ch = this.s[this.pos] as string;
      if (depth === 0 && stops.includes(ch)) break;
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      if (ch === ')' || ch === ']' || ch === '}') {
        if (depth === 0) break;
        depth--;
      }
      this.pos++;
    }
    if (this.pos === start) this.pos++; // always make progress
    return scalar(this.s.slice(start, this.pos).trim());
  }

  ws(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos] as string)) this.pos++;
  }
}

function scalar(word: string): PyValue {
  if (word === 'None') return null;
  if (word === 'True') return true;
  if (word === 'False') return false;
  if (word === 'inf') return Infinity;
  if (word === '-inf') return -Infinity;
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(word)) return Number(word);
  return word;
}
