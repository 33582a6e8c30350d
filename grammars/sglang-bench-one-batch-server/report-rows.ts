import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';

/**
 * `--show-report` prints its table after the cases it sums up: a row is the run of a case printed
 * above it, not another run. A row meets its case by batch size, latency (both print it to 10 ms)
 * and input length where both have one, and adds what the case lines lack (the mid-2025 layout
 * prints the acceptance length and the profile link in the table only), each value with the row's
 * line. A row that meets no case is a run of its own: the table pasted alone into a write-up, or
 * the cases cut out of a log. Some versions print the table twice: a row meets a run once per
 * table, so the second copy meets the first's rows.
 */
export function withReportRows(caseRuns: readonly RunRecord[], tables: readonly (readonly RunRecord[])[]): RunRecord[] {
  const runs = [...caseRuns];
  for (const rows of tables) {
    const met = new Set<number>();
    for (const row of rows) {
      const i = runs.findIndex((run, k) => !met.has(k) && sameCase(run, row));
      if (i < 0) {
        met.add(runs.length);
        runs.push(row);
        continue;
      }
      met.add(i);
      runs[i] = withMissingValues(runs[i] as RunRecord, row);
    }
  }
  return runs;
}

function sameCase(run: RunRecord, row: RunRecord): boolean {
  const agree = (column: string, required: boolean): boolean => {
    const a = run.fields[column];
    const b = row.fields[column];
    if (typeof a !== 'number' || typeof b !== 'number') return !required;
    // both were printed to 10 ms (two decimals of a second): equal as printed
    return column === 'total_latency_ms' ? Math.round(a) === Math.round(b) : a === b;
  };
  return agree('batch_size', true) && agree('total_latency_ms', true) && agree('input_len', false);
}

/** `run` with the values only `row` has, at the row's lines. */
function withMissingValues(run: RunRecord, row: RunRecord): RunRecord {
  const b = new FieldMapBuilder();
  for (const [column, value] of Object.entries(run.fields)) b.set(column, value, run.lines[column] ?? run.at.line);
  for (const [column, value] of Object.entries(row.fields)) b.set(column, value, row.lines[column] ?? row.at.line);
  return { ...run, fields: b.fields, lines: b.lines };
}
