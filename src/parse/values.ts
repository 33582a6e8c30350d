/** The outcome of reading a numeric value from the text after a label. */
export interface ParsedNumber {
  /** The number; null for an explicit "no value" (`N/A`, `None`, `nan`, `-`, `not set`). */
  readonly value: number | null;
  /** False when the text does not start with a number or a known "no value" word. */
  readonly ok: boolean;
  /** What followed the value (a unit, a human annotation); trimmed. */
  readonly rest: string;
}

const NUMBER = /^[+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const INF = /^[+-]?(?:inf(?:inity)?)\b/i;
const MISSING = /^(?:nan|n\/a|none|null|not set|-(?!\d)|—)(?![\w])/i;

/**
 * Reads the first value token of `text`. Thousands separators are accepted only when asked
 * (vLLM and SGLang blocks never print them, so a comma there ends the value).
 */
export function readNumber(text: string, options: { thousands?: boolean } = {}): ParsedNumber {
  if (isPlainDecimal(text)) {
    const value = Number(text);
    if (Number.isFinite(value)) return { value: Object.is(value, -0) ? 0 : value, ok: true, rest: '' };
  }
  return readNumberByPattern(text, options);
}

/** readNumber by its expressions alone (the reference of its plain-decimal shortcut). */
export function readNumberByPattern(text: string, options: { thousands?: boolean } = {}): ParsedNumber {
  const s = text.trim();
  const inf = INF.exec(s);
  if (inf) return { value: inf[0].startsWith('-') ? -Infinity : Infinity, ok: true, rest: s.slice(inf[0].length).trim() };
  const miss = MISSING.exec(s);
  if (miss) return { value: null, ok: true, rest: s.slice(miss[0].length).trim() };
  const m = NUMBER.exec(s);
  if (!m) return { value: null, ok: false, rest: s };
  let token = m[0];
  if (!options.thousands && token.includes(',')) token = token.slice(0, token.indexOf(','));
  const value = Number(token.replaceAll(',', ''));
  if (!Number.isFinite(value)) return { value: null, ok: false, rest: s };
  return { value: Object.is(value, -0) ? 0 : value, ok: true, rest: s.slice(token.length).trim() };
}


const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DOT = 46;
const PLUS = 43;
const MINUS = 45;

/**
 * `12`, `-0.49`, `.5`, `3.`: an optional sign (a minus before a digit), digits and at most one dot, nothing else. Most values
 * in a log are written so, and for these `Number` reads what NUMBER would match, without the three
 * expressions (a stats-dense server log reads millions of them). A property test checks both ways agree.
 */
function isPlainDecimal(text: string): boolean {
  const n = text.length;
  const c0 = text.charCodeAt(0);
  // `-` before anything but a digit is the "no value" dash (MISSING), not a sign
  if (c0 === MINUS && !(text.charCodeAt(1) >= DIGIT_0 && text.charCodeAt(1) <= DIGIT_9)) return false;
  let i = c0 === MINUS || c0 === PLUS ? 1 : 0;
  let digits = 0;
  let dots = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) digits++;
    else if (c === DOT && dots === 0) dots++;
    else return false;
  }
  return digits > 0;
}

/** 36.59 → 0.3659 without binary noise (0.36590000000000006): 12 significant digits are kept. */
export function percentToFraction(percent: number): number {
  return scaleExact(percent, 0.01);
}

/** Multiplies and rounds away binary floating-point noise (12 significant digits). */
export function scaleExact(value: number, factor: number): number {
  if (factor === 1 || !Number.isFinite(value)) return value;
  return Number((value * factor).toPrecision(12));
}
