import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import { parseTokens } from '../../../src/parse/pieces.js';
import type { IToken } from '../../../src/parse/chevrotain-runtime.js';
import type { TextSource } from '../../../src/core/grammar.js';
import type { SourcePos } from '../../../src/core/types.js';
import { documentOf, isBlank, MAX_NESTING, parseStrictJsonLines, parseWholeJson } from './fast-path.js';
import { type JsonDocument, jsonParser, type JsonValue, keyLines } from './parser.js';
import { jsonLexer } from './tokens.js';
import { closedCutDocument } from './cut-document.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './char-codes.js';

export { type JsonDocument, type JsonValue, keyLines } from './parser.js';

/** A JSON object (not an array, not null). */
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The line of an object's first key: where an element of an array that spans many lines starts,
 * for its provenance. Undefined for an object with no key.
 */
export function firstKeyLine(obj: JsonObject): number | undefined {
  let first: number | undefined;
  for (const line of Object.values(keyLines.get(obj) ?? {})) if (first === undefined || line < first) first = line;
  return first;
}

/**
 * Above this many characters, JSON that JSON.parse cannot read whole is not tokenized: the grammar
 * holds a token object per value, some 50 times the text's size (a 4 MB file took 250 MB).
 */
export const GRAMMAR_MAX_CHARS = 1024 * 1024;

/**
 * All JSON documents in a source (one, several appended, or JSON Lines), each with its start line.
 * Syntax errors become diagnostics; the documents around them are kept.
 */
export function parseJsonDocuments(source: TextSource, sink: DiagnosticSink): JsonDocument[] {
  const fast = parseStrictJsonLines(source.lines) ?? parseWholeJson(source.lines);
  if (fast !== null) return fast;
  let chars = 0;
  for (const line of source.lines) chars += line.length + 1;
  return chars > GRAMMAR_MAX_CHARS ? largeDocuments(source, chars, sink) : parseWithGrammar(source, sink);
}

/**
 * Large JSON that is neither one document nor JSON Lines throughout: documents one after another
 * (`cat results/*.json > all.json`, pretty-printed), a cut line, text between documents. It is cut
 * where the bracket depth is back to zero at a line's end (topLevelLines); each part that is a
 * document is read, a part that is not is read line by line (JSON Lines around a cut line), and the
 * lines that are no document on their own are reported.
 */
function largeDocuments(source: TextSource, chars: number, sink: DiagnosticSink): JsonDocument[] {
  const docs: JsonDocument[] = [];
  let skipped = 0;
  let first = 0;
  for (const [start, end, closed] of topLevelLines(source.lines)) {
    // (a range left open by a cut document runs to the end of the file: not joined into one string)
    const whole = closed && end - start > 1 ? documentOf(source.lines.slice(start, end).join('\n'), start + 1) : null;
    if (whole !== null) {
      docs.push(whole);
      continue;
    }
    const found = docs.length;
    const skippedBefore = skipped;
    for (let i = start; i < end; i++) {
      const text = source.lines[i] as string;
      if (isBlank(text)) continue;
      const doc = documentOf(text, i + 1);
      if (doc !== null) {
        docs.push(doc);
        continue;
      }
      const parts = backToBack(text).map((part) => documentOf(part, i + 1));
      for (const part of parts) if (part !== null) docs.push(part);
      if ((parts.length < 2 || parts.includes(null)) && skipped++ === 0) first = i + 1;
    }
    // no line of a range left open is a document (JSON Lines around a cut one are): the file's last document, cut short
    const cut = !closed && docs.length === found ? cutDocument(source.lines.slice(start, end).join('\n'), start + 1, source, sink) : null;
    if (cut !== null) {
      docs.push(cut);
      // (its lines are no longer skipped ones)
      skipped = skippedBefore;
    }
  }
  if (skipped > 0) sink.report('json/too-large-to-recover', { file: source.path, line: first, column: 1 }, Math.round(chars / 1e5) / 10, skipped);
  return docs;
}

/**
 * Line ranges [start, end) at whose end the bracket depth (outside strings) is back to zero: a
 * document each, or a line of text between documents. A cut document leaves the depth above zero,
 * and its range runs on to where it is zero again, or to the end (`closed` false).
 */
function* topLevelLines(lines: readonly string[]): Generator<readonly [start: number, end: number, closed: boolean]> {
  const scan = new BracketDepth();
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    for (let k = 0; k !== -1; ) k = scan.toZero(text, k);
    if (scan.depth === 0 && !scan.inString) {
      yield [start, i + 1, true];
      start = i + 1;
    }
  }
  if (start < lines.length) yield [start, lines.length, false];
}

/**
 * A line's documents written back to back (`cat results/*.json > all.json` of files without a
 * final newline: `…}{…`): the pieces at whose end the bracket depth is back to zero, and the rest.
 */
function backToBack(text: string): string[] {
  const scan = new BracketDepth();
  const pieces: string[] = [];
  let start = 0;
  for (let end = scan.toZero(text, 0); end !== -1; end = scan.toZero(text, end)) {
    pieces.push(text.slice(start, end));
    start = end;
  }
  if (!isBlank(text.slice(start))) pieces.push(text.slice(start));
  return pieces;
}

/** The bracket depth of JSON text outside strings, read on across the lines of a text. */
class BracketDepth {
  depth = 0;
  inString = false;

  /** Reads `text` from `from`: the index after the bracket that brings the depth back to zero, or -1 at the text's end. */
  toZero(text: string, from: number): number {
    for (let k = from; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (this.inString) {
        if (c === BACKSLASH) k++;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && this.depth > 0 && --this.depth === 0) return k + 1;
    }
    return -1;
  }
}

/**
 * Past this many parts the grammar could not read, a file is read for whole documents only
 * (JSON.parse): the grammar's error recovery takes some 40 µs a part, and 100,000 cut lines of
 * JSON Lines took seconds, to produce nothing.
 */
const MAX_GRAMMAR_FAILURES = 100;

/** Syntax errors and repeated keys reported per file (the rest follow from the first). */
const MAX_REPORTED = 5;

/** The Chevrotain grammar: appended or pretty-printed documents, cut ones, text around them. */
export function parseWithGrammar(source: TextSource, sink: DiagnosticSink): JsonDocument[] {
  const text = source.lines.join('\n');
  const lexed = jsonLexer().tokenize(text);
  // Each top-level document is parsed on its own, so a cut or broken one costs only itself.
  const docs: JsonDocument[] = [];
  let reported = 0;
  const { slices, strayLines, strayCloses, depths, closed } = topLevelSlices(lexed.tokens);
  // the file's last document, cut short, read up to its last whole value (its cut string is no syntax error of the file's)
  const last = slices.length - 1;
  const lastStart = slices[last]?.[0]?.startOffset ?? text.length;
  const cut = closed[last] === false ? cutDocument(text.slice(lastStart), slices[last]?.[0]?.startLine ?? 1, source, sink) : null;
  for (const e of lexed.errors.filter((e) => cut === null || e.offset < lastStart).slice(0, 5)) {
    sink.report('json/syntax', { file: source.path, line: e.line ?? 1, column: e.column ?? 1 }, e.message);
  }
  if (strayLines.size > 0) {
    // text between documents (a shell prompt, a pasted summary): counted once, never parsed
    let first = Number.POSITIVE_INFINITY;
    for (const line of strayLines) first = Math.min(first, line);
    sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, strayLines.size);
  }
  if (strayCloses.length > 0) sink.report('json/stray-bracket', { file: source.path, line: strayCloses[0] as number, column: 1 }, strayCloses.length);
  let failed = 0;
  let skipped = 0;
  let firstSkipped = 0;
  let repeated = 0;
  for (const [k, slice] of slices.entries()) {
    if (k === last && cut !== null) {
      docs.push(cut);
      continue;
    }
    const depth = depths[k] ?? 0;
    const startLine = slice[0]?.startLine ?? 1;
    if (depth > MAX_NESTING) {
      // the recursive parser would overflow the stack and cost the file's other documents
      sink.report('json/too-deep', { file: source.path, line: startLine, column: 1 }, depth);
      continue;
    }
    if (failed >= MAX_GRAMMAR_FAILURES) {
      // a cut part (its brackets never all close) is no document
      const doc = closed[k] !== true ? null : documentOf(text.slice(slice[0]?.startOffset ?? 0, (slice.at(-1)?.endOffset ?? -1) + 1), startLine);
      if (doc !== null) docs.push(doc);
      else if (skipped++ === 0) firstSkipped = startLine;
      continue;
    }
    // With recovery on, a rule that could not recover returns undefined instead of throwing.
    // (the parser is shared: what a parse that threw left in repeatedKeys is no part of this one)
    jsonParser().repeatedKeys.length = 0;
    const { found, e } = parseTokens(jsonParser(), slice, (p) => ({ found: p.documents() as JsonDocument[] | undefined, e: p.errors[0] }));
    for (const r of jsonParser().repeatedKeys.splice(0)) if (repeated++ < MAX_REPORTED) sink.report('parse/repeated-key', { file: source.path, line: r.line, column: 1 }, r.key, r.firstLine, 'first');
    if (e) {
      failed++;
      const t = e.token;
      const line = t && Number.isFinite(t.startLine) ? (t.startLine ?? 1) : (slice.at(-1)?.endLine ?? source.lines.length);
      if (reported++ < MAX_REPORTED) sink.report('json/syntax', { file: source.path, line, column: t && Number.isFinite(t.startColumn) ? (t.startColumn ?? 1) : 1 }, shorten(e.message));
      continue;
    }
    for (const d of found ?? []) if (d.value !== undefined) docs.push(d);
  }
  if (skipped > 0) sink.report('json/too-damaged', { file: source.path, line: firstSkipped, column: 1 }, skipped, MAX_GRAMMAR_FAILURES);
  return docs;
}

/**
 * A document the file ends inside, read up to its last whole value (cut-document.ts), said with a
 * warning; null when it holds no whole member.
 */
function cutDocument(text: string, firstLine: number, source: TextSource, sink: DiagnosticSink): JsonDocument | null {
  const closed = closedCutDocument(text);
  const read = closed === null ? null : documentOf(closed.text, firstLine);
  // (a document cut inside its first member holds nothing: the cut stays a syntax error)
  if (closed === null || read === null || Object.keys(read.value as object).length === 0) return null;
  // said where its partial part starts (the pipeline takes the runs from there on as partial), with the line of the cut
  sink.report('json/cut', { file: source.path, line: firstLine + lineBreaks(text.slice(0, closed.partialFrom)), column: 1 }, firstLine + lineBreaks(text));
  return { ...read, cut: true };
}

/** How many line breaks the text holds. */
function lineBreaks(text: string): number {
  let n = 0;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

/**
 * Splits a token stream where bracket depth returns to zero: one slice per top-level document.
 * Tokens outside any document are not parsed; their lines are returned as stray, and the lines of
 * closing brackets among them (strayCloses): a document that lost a line with an opening bracket
 * ended early there, the values after that line read one level up.
 */
function topLevelSlices(tokens: readonly IToken[]): { slices: IToken[][]; strayLines: Set<number>; strayCloses: number[]; depths: number[]; closed: boolean[] } {
  const slices: IToken[][] = [];
  const strayLines = new Set<number>();
  const strayCloses: number[] = [];
  /** The deepest nesting of each slice, and whether its brackets all closed (else it was cut). */
  const depths: number[] = [];
  const closed: boolean[] = [];
  let deepest = 0;
  let open: string[] = [];
  const close = (slice: IToken[]): void => {
    slices.push(slice);
    depths.push(deepest);
    closed.push(open.length === 0);
    deepest = 0;
  };
  let current: IToken[] = [];
  // (open: the open brackets of the current document, innermost last)
  for (const t of tokens) {
    const name = t.tokenType.name;
    // `{` at column 1 of a new line while a document is still open, where it cannot be an array's
    // next value (after `[`, or after `,` in an array): JSON Lines whose previous line was cut.
    // Start over there. (After `:` too: writers put a value on its key's line.)
    const prev = current.at(-1);
    const inArray = open.at(-1) === 'LSquare';
    const continues = prev?.tokenType.name === 'LSquare' || (inArray && prev?.tokenType.name === 'Comma');
    if (open.length > 0 && name === 'LCurly' && t.startColumn === 1 && prev && !continues && (prev.endLine ?? 0) < (t.startLine ?? 0)) {
      close(current);
      current = [];
      open = [];
    }
    if (open.length === 0 && name !== 'LCurly' && name !== 'LSquare') {
      strayLines.add(t.startLine ?? 1);
      if (name === 'RCurly' || name === 'RSquare') strayCloses.push(t.startLine ?? 1);
      continue;
    }
    current.push(t);
    if (name === 'LCurly' || name === 'LSquare') deepest = Math.max(deepest, open.push(name));
    else if (name === 'RCurly' || name === 'RSquare') open.pop();
    if (open.length === 0) {
      close(current);
      current = [];
    }
  }
  if (current.length > 0) close(current);
  return { slices, strayLines, strayCloses, depths, closed };
}

/**
 * The start of a JSON document: an object, or an array that opens a line of its own, is empty or
 * whose first element starts like a JSON value. A log line's bracketed prefix is none (`[rank0]:[W1222
 * …]`, `[2026-01-05 10:00:10 TP0]`, `[TensorRT-LLM][INFO]`): a text output with one first (tee'd)
 * is text.
 */
const JSON_DOCUMENT_START = /^\s*(?:\{|\[[ \t]*(?:\n|$)|\[\s*(?:[{["\]]|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s*(?:[,\]]|$)|(?:true|false|null)\s*(?:[,\]]|$)|$))/;

/** True when a head looks like the start of a JSON document or JSON Lines file. */
export function looksLikeJson(head: string): boolean {
  return JSON_DOCUMENT_START.test(head);
}

function shorten(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/** A top-level object a grammar reads, with its keys' lines and where it starts. */
export interface ObjectDocument {
  readonly obj: JsonObject;
  readonly lines: Readonly<Record<string, number>>;
  readonly at: SourcePos;
}

/**
 * The top-level objects of a source that `accepts` (a grammar's result or record); any other
 * document is a `json/not-a-result` info naming its first keys.
 */
export function acceptedObjects(source: TextSource, sink: DiagnosticSink, accepts: (obj: JsonObject) => boolean): ObjectDocument[] {
  const out: ObjectDocument[] = [];
  for (const doc of parseJsonDocuments(source, sink)) {
    const at = { file: source.path, line: doc.line, column: 1 };
    const obj = doc.value;
    if (isJsonObject(obj) && accepts(obj)) out.push({ obj, lines: keyLines.get(obj) ?? {}, at });
    else sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
  }
  return out;
}
