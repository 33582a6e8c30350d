import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, NEWLINE, OPEN_BRACE, OPEN_BRACKET, QUOTE, RETURN, SPACE, TAB } from './char-codes.js';

/**
 * A JSON document cut short (a benchmark killed while writing its result, a disk that filled up, a
 * copy that stopped): the values it holds before the cut are the file's own, and a result writes
 * its summary before its per-request arrays (vLLM's `--save-detailed`). This closes the document
 * after its last whole member so JSON.parse can read it.
 *
 * What is kept: every member of an object whose value is whole (a string with its closing quote, a
 * number or literal followed by a delimiter: `140.7` cut to `14` is no value, a closed array or
 * object), at any depth, and the elements of a document that is itself an array (a sweep's list of
 * results). An array the cut falls inside is left out whole, with its member: a per-request list
 * read in part would give statistics of some requests as if of all of them.
 */

/** A cut document closed after its last whole value, and where its part the cut fell in starts. */
export interface ClosedCutDocument {
  readonly text: string;
  /**
   * The offset in the text of what the cut left partial: the document itself (0), or in a
   * document that is an array, the element the cut fell in (the elements before it are whole), or
   * the closed text's end when the cut fell between elements.
   */
  readonly partialFrom: number;
}

/** The document's text up to its last whole member, closed; null when it holds none, or is not cut (its brackets all close). */
export function closedCutDocument(text: string): ClosedCutDocument | null {
  const stack: Container[] = [];
  /** Where the text can be cut: after a whole member with only objects open (below the document). */
  let safe: { end: number; partialFrom: number } | null = null;
  /** Where the document's element being read starts, when the document is an array. */
  let element = 0;
  const markSafe = (end: number): void => {
    if (!stack.every((c, depth) => c.kind === 'object' || depth === 0)) return;
    const inArray = stack[0]?.kind === 'array';
    safe = { end, partialFrom: !inArray ? 0 : stack.length > 1 ? element : end };
  };
  /** A value just ended at `end` (exclusive) in the innermost container. */
  const valueEnded = (end: number): void => {
    const top = stack.at(-1);
    if (!top) return;
    top.state = 'after';
    top.empty = false;
    markSafe(end);
  };
  // (anything but a prefix of one JSON document is no cut document: a snippet with prose after it, `…` in it)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === NEWLINE || c === RETURN) continue;
    const top = stack.at(-1);
    if (stack.length === 1 && top?.kind === 'array' && c !== COMMA && c !== CLOSE_BRACKET) element = i;
    if (c === QUOTE) {
      if (!top || (top.state !== 'value' && top.state !== 'key')) return null;
      const end = stringEnd(text, i);
      if (end === -1) break;
      if (top.state === 'key') {
        top.state = 'colon';
        top.empty = false;
      } else valueEnded(end);
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (top ? top.state !== 'value' : i !== text.search(/\S/)) return null;
      stack.push({ kind: c === OPEN_BRACE ? 'object' : 'array', state: c === OPEN_BRACE ? 'key' : 'value', empty: true });
      markSafe(i + 1);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      // its own kind, after a value or with none (no trailing comma)
      if (!top || top.kind !== (c === CLOSE_BRACE ? 'object' : 'array') || (top.state !== 'after' && !top.empty)) return null;
      stack.pop();
      if (stack.length === 0) return null;
      valueEnded(i + 1);
    } else if (c === COLON) {
      if (top?.state !== 'colon') return null;
      top.state = 'value';
    } else if (c === COMMA) {
      if (top?.state !== 'after') return null;
      top.state = top.kind === 'object' ? 'key' : 'value';
    } else {
      // a number or literal: whole only when a delimiter follows it
      if (top?.state !== 'value') return null;
      let end = i;
      while (end < text.length && !DELIMITERS.has(text.charCodeAt(end))) end++;
      if (end === text.length) break;
      valueEnded(end);
      i = end - 1;
    }
  }
  if (stack.length === 0 || safe === null) return null;
  const { end, partialFrom } = safe as { end: number; partialFrom: number };
  const kept = text.slice(0, end);
  return { text: kept + closersOf(kept), partialFrom };
}

interface Container {
  readonly kind: 'object' | 'array';
  /** In an object: a key is expected, its colon, its value, or a comma after it; in an array: a value or a comma. */
  state: 'key' | 'colon' | 'value' | 'after';
  /** Nothing read in it yet (`{}` and `[]` close so, `{"a":}` and `[1,]` do not). */
  empty: boolean;
}

/** The brackets that close what is open at the end of the text (outside strings), innermost first. */
function closersOf(text: string): string {
  const open: string[] = [];
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === QUOTE) {
      const end = stringEnd(text, k);
      if (end === -1) break;
      k = end - 1;
    } else if (c === OPEN_BRACE) open.push('}');
    else if (c === OPEN_BRACKET) open.push(']');
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) open.pop();
  }
  return open.reverse().join('');
}

/** The index after the string starting at `start`'s closing quote; -1 when the text ends inside it. */
function stringEnd(text: string, start: number): number {
  for (let k = start + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === BACKSLASH) k++;
    else if (c === QUOTE) return k + 1;
  }
  return -1;
}

const DELIMITERS = new Set([SPACE, TAB, NEWLINE, RETURN, COMMA, CLOSE_BRACE, CLOSE_BRACKET]);
