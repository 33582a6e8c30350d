import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { TextSource } from '../../../src/core/grammar.js';
import type { RunRecord } from '../../../src/core/records.js';
import type { SourcePos } from '../../../src/core/types.js';
import { parsePyValue } from '../../../src/parse/python-repr.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { INTERLEAVED_LINE, pastBlankAndInterleavedLines } from '../interleaved-line.js';
import { csvRows } from './index.js';

/** Lines of another process (a server's, tee'd) passed over before a summary's header. */
const MAX_LEADING_LINES = 20;

/** A head's first line that is neither blank nor another process's (INTERLEAVED_LINE): where a summary's header is. */
export function firstSummaryLine(head: string): string {
  const at = pastBlankAndInterleavedLines(head, 0, MAX_LEADING_LINES);
  const end = head.indexOf('\n', at);
  return head.slice(at, end < 0 ? head.length : end);
}

/** How a summary's row becomes a run: whether the row's object is a result, and the run it makes (null: none). */
export interface SummaryRowReader {
  readonly isResult: (obj: JsonObject) => boolean;
  readonly toRun: (obj: JsonObject, lines: Readonly<Record<string, number>>, at: SourcePos) => RunRecord | null;
}

/**
 * A `summary.csv` that pandas wrote from a list of result objects (`vllm bench sweep`'s): an unnamed
 * index column, then one column per key, each row the object its `run=N.json` holds (cells as
 * pandas writes them: a dict or list in Python's notation, `True`, `nan`, empty for none). A row
 * that is no result is counted in one info; a row with more or fewer cells than the header (cut
 * short, or run into another) is kept as a partial run with a warning. A server's line tee'd into
 * the file is passed over and counted.
 */
export function pandasSummaryRuns(source: TextSource, sink: DiagnosticSink, reader: SummaryRowReader): RunRecord[] {
  let header: string[] | null = null;
  const runs: RunRecord[] = [];
  let others = 0;
  let firstOther = 0;
  let interleaved = 0;
  let firstInterleaved = 0;
  for (const row of csvRows(source, sink)) {
    // a server's line tee'd into the file (before its header or between rows) is no row
    if (INTERLEAVED_LINE.test(source.lines[row.line - 1] ?? '')) {
      if (interleaved++ === 0) firstInterleaved = row.line;
      continue;
    }
    if (header === null) {
      header = row.cells;
      continue;
    }
    const at = { file: source.path, line: row.line, column: 1 };
    const obj: JsonObject = {};
    const lines: Record<string, number> = {};
    header.forEach((name, i) => {
      const cell = row.cells[i];
      // the first column is pandas' row number
      if (i === 0 || name === '' || cell === undefined || cell.trim() === '') return;
      obj[name] = pandasCell(cell);
      lines[name] = row.line;
    });
    if (!reader.isResult(obj)) {
      if (others++ === 0) firstOther = row.line;
      continue;
    }
    const run = reader.toRun(obj, lines, at);
    if (!run) continue;
    if (row.cells.length === header.length) runs.push(run);
    else {
      sink.report('table/short-row', at, `run ${String(obj.run_number ?? '?')}`, row.cells.length, header.length);
      runs.push({ ...run, complete: false });
    }
  }
  if (others > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: firstOther, column: 1 }, others);
  if (interleaved > 0) sink.report('block/interleaved-line', { file: source.path, line: firstInterleaved, column: 1 }, interleaved);
  return runs;
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A cell as pandas wrote it: a number, a Python literal (`{'method': 'eagle3'}`, `[41.2, 40.8]`, `True`), NaN, else text. */
function pandasCell(cell: string): JsonValue {
  const text = cell.trim();
  if (NUMBER.test(text)) return Number(text);
  if (text === 'True' || text === 'False') return text === 'True';
  if (text === 'nan' || text === 'NaN') return Number.NaN;
  if (/^[[{]/.test(text)) {
    const v = parsePyValue(text);
    if (v !== null && typeof v === 'object') return v as JsonValue;
  }
  return text;
}
