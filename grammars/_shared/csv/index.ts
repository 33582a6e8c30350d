import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { TextSource } from '../../../src/core/grammar.js';
import { lexedPieces, parseTokens } from '../../../src/parse/pieces.js';
import { type CsvRow, csvParser } from './parser.js';
import { csvLexer, CutQuotedField } from './tokens.js';

export type { CsvRow } from './parser.js';

/** Syntax errors reported per file, at most. */
const MAX_REPORTED = 5;

/**
 * Every non-blank CSV record of a source, with its line, as the pieces are read; syntax errors
 * become diagnostics. A long source is read in pieces (src/parse/pieces.ts) cut between records:
 * before a line outside any quoted field (an even count of quotes above it). The records are
 * yielded piece by piece, so a reader that keeps what it needs holds no more than a piece's.
 */
export function* csvRows(source: TextSource, sink: DiagnosticSink): Generator<CsvRow> {
  let reported = 0;
  for (const piece of lexedPieces(source.lines, betweenRecords(source.lines), (text) => csvLexer().tokenize(text))) {
    const rows = parseTokens(csvParser(), piece.tokens, (parser) => {
      const parsed = parser.document();
      for (const e of parser.errors) {
        if (reported++ >= MAX_REPORTED) break;
        const line = Number.isFinite(e.token.startLine) ? (e.token.startLine ?? 1) : piece.end;
        sink.report('parse/syntax', { file: source.path, line, column: 1 }, 'a CSV record', e.token.image ?? '');
      }
      return parsed;
    });
    // a quoted cell that never closes is the last thing in the text: its row is cut there
    const cut = piece.tokens.at(-1)?.tokenType === CutQuotedField ? rows.at(-1) : undefined;
    for (const row of rows) if (row.cells.some((c) => c.trim() !== '')) yield row === cut ? { ...row, cut: true } : row;
  }
}

/** A cut rule for lexedPieces: true before a line that no quoted field of the lines above runs into. */
function betweenRecords(lines: readonly string[]): (i: number) => boolean {
  let read = 0;
  let inQuotes = false;
  return (i) => {
    for (; read < i; read++) {
      const line = lines[read] as string;
      for (let k = line.indexOf('"'); k >= 0; k = line.indexOf('"', k + 1)) inQuotes = !inQuotes;
    }
    return !inQuotes;
  };
}
