import { type JsonDocument, type JsonValue, keyLines } from './parser.js';

/**
 * The grammar's result without the grammar, for sources whose every non-blank line is a whole
 * strict-JSON document (one-line result files, JSON Lines): JSON.parse is many times faster than
 * tokenizing, and each key's line is its document's line. Returns null, and the grammar takes
 * over, for anything else: pretty-printed or cut documents, `NaN`/`Infinity`, a duplicated key
 * (JSON.parse keeps the last, the grammar the first) or a `__proto__` key.
 */
export function parseStrictJsonLines(lines: readonly string[]): JsonDocument[] | null {
  const docs: JsonDocument[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === '') continue;
    if (text.includes('"__proto__"')) return null;
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      return null;
    }
    if (keysIn(value, i + 1) !== keyTokens(text)) return null;
    docs.push({ value, line: i + 1 });
  }
  return docs;
}

/** Counts the keys of every object in a parsed value, recording each key's line as the grammar does. */
function keysIn(value: JsonValue, line: number): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += keysIn(v, line);
    return n;
  }
  const lines: Record<string, number> = {};
  for (const k of Object.keys(value)) {
    lines[k] = line;
    n += 1 + keysIn(value[k] as JsonValue, line);
  }
  keyLines.set(value, lines);
  return n;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

/** Counts string literals followed by `:` in valid JSON text: its keys, duplicates included. */
function keyTokens(text: string): number {
  let n = 0;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== QUOTE) {
      i++;
      continue;
    }
    i++;
    while (i < text.length && text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
    i++;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r' || text[i] === '\n')) i++;
    if (text.charCodeAt(i) === COLON) n++;
  }
  return n;
}
