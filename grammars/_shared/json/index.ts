import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { TextSource } from '../../../src/core/grammar.js';
import { type JsonDocument, jsonParser } from './parser.js';
import { jsonLexer } from './tokens.js';

export { type JsonDocument, type JsonValue, keyLines } from './parser.js';

/**
 * All JSON documents in a source (one, several appended, or JSON Lines), each with its start line.
 * Syntax errors become diagnostics; the documents around them are kept.
 */
export function parseJsonDocuments(source: TextSource, sink: DiagnosticSink): JsonDocument[] {
  const lexed = jsonLexer.tokenize(source.lines.join('\n'));
  jsonParser.input = lexed.tokens;
  // With recovery on, a rule that could not recover returns undefined instead of throwing.
  const docs: JsonDocument[] | undefined = jsonParser.documents();
  for (const e of lexed.errors.slice(0, 5)) {
    sink.report('json/syntax', { file: source.path, line: e.line ?? 1, column: e.column ?? 1 }, e.message);
  }
  for (const e of jsonParser.errors.slice(0, 5)) {
    const t = e.token;
    const line = Number.isFinite(t.startLine) ? (t.startLine ?? 1) : source.lines.length;
    sink.report('json/syntax', { file: source.path, line, column: Number.isFinite(t.startColumn) ? (t.startColumn ?? 1) : 1 }, shorten(e.message));
  }
  return (docs ?? []).filter((d) => d.value !== undefined);
}

/** True when a head looks like the start of a JSON document or JSON Lines file. */
export function looksLikeJson(head: string): boolean {
  return /^\s*[{[]/.test(head);
}

function shorten(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}
