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


/** 36.59 → 0.3659 without binary noise (0.36590000000000006): 12 significant digits are kept. */
export function percentToFraction(percent: number): number {
  return scaleExact(percent, 0.01);
}

/** Multiplies and rounds away binary floating-point noise (12 significant digits). */
export function scaleExact(value: number, factor: number): number {
  if (factor === 1 || !Number.isFinite(value)) return value;
  return Number((value * factor).toPrecision(12));
}
