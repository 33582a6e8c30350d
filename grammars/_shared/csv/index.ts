import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { TextSource } from '../../../src/core/grammar.js';
import { type CsvRow, csvParser } from './parser.js';
import { csvLexer } from './tokens.js';

export type { CsvRow } from './parser.js';

/** Every non-blank CSV record of a source, with its line; syntax errors become diagnostics. */
export function parseCsvRows(source: TextSource, sink: DiagnosticSink): CsvRow[] {
  const lexed = csvLexer().tokenize(source.lines.join('\n'));
  csvParser().input = lexed.tokens;
  const rows = csvParser().document();
  for (const e of csvParser().errors.slice(0, 5)) {
    const line = Number.isFinite(e.token.startLine) ? (e.token.startLine ?? 1) : source.lines.length;
    sink.report('parse/syntax', { file: source.path, line, column: 1 }, 'a CSV record', e.token.image ?? '');
  }
  return rows.filter((r) => r.cells.some((c) => c.trim() !== ''));
}
