import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { parsePyValue } from '../../src/parse/python-repr.js';
import { csvRows } from '../_shared/csv/index.js';
import type { JsonObject, JsonValue } from '../_shared/json/index.js';
import { isStartupResult, startupRun } from './result.js';

/** The header pandas writes for a startup sweep's runs: an unnamed index column, then the result keys. */
export const SUMMARY_HEADER = /^,(?=(?:.*,)?avg_(?:cold|warm)_startup_time(?:,|$))/;

/**
 * `vllm bench sweep startup`'s `summary.csv`: one row per run of every combination, the object its
 * `run=N.json` holds as columns (pandas: a list or dict cell in Python's notation, `{10: 41.2, …}`,
 * an empty cell for none). Each row is read as that object is (startupRun), labelled by its
 * `_benchmark_name` when it has one.
 */
export function summaryRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  let header: string[] | null = null;
  const runs: RunRecord[] = [];
  let others = 0;
  let firstOther = 0;
  for (const row of csvRows(source, sink)) {
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
      obj[name] = cellValue(cell);
      lines[name] = row.line;
    });
    if (!isStartupResult(obj)) {
      if (others++ === 0) firstOther = row.line;
      continue;
    }
    const run = startupRun(obj, lines, at, null, sink);
    // a row cut short, or with cells of another row: its values may be in the wrong columns
    if (row.cells.length === header.length) runs.push(run);
    else {
      sink.report('table/short-row', at, `run ${String(obj.run_number ?? '?')}`, row.cells.length, header.length);
      runs.push({ ...run, complete: false });
    }
  }
  if (others > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: firstOther, column: 1 }, others);
  return runs;
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A cell as pandas wrote it: a number, a Python literal (`[41.2, 40.8]`, `{10: 40.9}`, `True`), else text. */
function cellValue(cell: string): JsonValue {
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
