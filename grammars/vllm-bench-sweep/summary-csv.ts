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
  for (const row of csvRows(source, sink)) {
    if (header === null) {
      header = row.cells;
      continue;
    }
    const obj: JsonObject = {};
    const lines: Record<string, number> = {};
    header.forEach((name, i) => {
      const cell = row.cells[i];
      // the first column is pandas' row number
      if (i === 0 || name === '' || cell === undefined || cell.trim() === '') return;
      obj[name] = cellValue(cell);
      lines[name] = row.line;
    });
    const name = obj._benchmark_name;
    const run = resultRun(obj, lines, { file: source.path, line: row.line, column: 1 }, typeof name === 'string' && name !== '' ? name : null, sink);
    if (run) runs.push(run);
  }
  return runs;
}

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
