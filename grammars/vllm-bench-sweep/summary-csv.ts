import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { parsePyValue } from '../../src/parse/python-repr.js';
import { csvRows } from '../_shared/csv/index.js';
import type { JsonObject, JsonValue } from '../_shared/json/index.js';
import { resultRun } from '../vllm-bench-result-json/index.js';

/**
 * The header pandas writes for the sweep's runs: an unnamed index column first, then the result
 * keys, the sweep's `run_number` and the overrides.
 */
export const SUMMARY_HEADER = /^,(?=.*(?:^|,)run_number(?:,|$))(?=.*(?:^|,)request_throughput(?:,|$))/;

/**
 * `summary.csv`: one row per measured run, the result object `run=N.json` holds as columns (cells
 * as pandas wrote them: a dict or list in Python's notation, `True`, empty for none). Each row is
 * read as its JSON is (vllm-bench-result-json's resultRun), labelled by the serve combination's
 * `_benchmark_name` when it has one; a run read from both is counted once (normalize/dedupe-runs).
 */
export function summaryRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  let header: string[] | null = null;
  const runs: RunRecord[] = [];
  // rows that hold no result (a log line written into the file): counted in one info
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
    if (!RESULT_KEYS.some((k) => typeof obj[k] === 'number')) {
      if (others++ === 0) firstOther = row.line;
      continue;
    }
    const name = obj._benchmark_name;
    const run = resultRun(obj, lines, at, typeof name === 'string' && name !== '' ? name : null, sink);
    if (!run) continue;
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

/** A row that is a result has one of these (as a result JSON must: grammars/_shared/json/result-object.ts). */
const RESULT_KEYS = ['completed', 'request_throughput', 'duration'];

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A cell as pandas wrote it: a number, a Python literal (`{'method': 'eagle3'}`, `True`), else text. */
function cellValue(cell: string): JsonValue {
  const text = cell.trim();
  if (NUMBER.test(text)) return Number(text);
  if (text === 'True' || text === 'False') return text === 'True';
  if (/^[[{]/.test(text)) {
    const v = parsePyValue(text);
    if (v !== null && typeof v === 'object') return v as JsonValue;
  }
  return text;
}
