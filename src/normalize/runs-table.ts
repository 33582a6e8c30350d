import type { RunRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import type { DiagnosticSink } from '../core/diagnostic.js';
import { type Attach, inFileAttacher, type OnServed } from './attach-in-file.js';
import { addDerived } from './derived.js';
import { runIdsInOrder } from './run-id.js';
import { CANONICAL_COLUMNS, orderColumns } from './schema.js';
import { nullRowTemplate, ownCell, setCell } from '../core/cells.js';

export type RunRow = Record<string, FieldValue>;

/**
 * One row per run with the canonical columns (schema.md §1). Every row has every column; missing
 * values are null. Rows are sorted by source file then line, so output is stable.
 */
export function toRunRows(records: readonly ParsedRecord[], sink?: DiagnosticSink): RunRow[] {
  return takeFilled(toSparseRunRows(records, sink));
}

export interface SparseRowsOptions {
  /** Each run record leaves this array (the caller's to discard) as soon as its row exists. */
  readonly take?: { readonly records: ParsedRecord[] };
  /** Told the lines of its server's log a run printed in it took its server aggregates from. */
  readonly onServed?: OnServed;
}

/**
 * toRunRows without the null cells: for callers that fill the columns themselves later (peak RSS).
 */
export function toSparseRunRows(records: readonly ParsedRecord[], sink?: DiagnosticSink, options: SparseRowsOptions = {}): RunRow[] {
  const { take } = options;
  const attach = inFileAttacher(records, sink, options.onServed); // write-ups: commands and stats lines in the same file
  const rows: RunRow[] = [];
  const idOf = runIdsInOrder();
  for (let i = 0; i < records.length; i++) {
    const { format, record } = records[i] as ParsedRecord;
    if (record.kind !== 'run') continue;
    rows.push(runRow(format, record, idOf(record.at.file, record.at.line), attach));
    // a hole, not a placeholder: nothing reads the array after this but the caller, to discard it
    if (take) delete take.records[i];
  }
  rows.sort((a, b) => compareSource(a, b));
  return rows;
}

/** How `config_sources` names the file a run's excerpt came from (RunRecord.excerptOf): `excerpt:logs/a.log`. */
const EXCERPT = 'excerpt:';

/** The file a run's excerpt came from (a `tail` header's, a grep prefix's), or null when it was read from its own file. */
export function excerptPath(row: RunRow): string | null {
  const sources = row.config_sources;
  if (typeof sources !== 'string' || !sources.includes(EXCERPT)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sources);
  } catch {
    return null;
  }
  const found = Array.isArray(parsed) ? parsed.find((s): s is string => typeof s === 'string' && s.startsWith(EXCERPT)) : undefined;
  return found === undefined ? null : found.slice(EXCERPT.length);
}

function runRow(format: string, record: RunRecord, runId: string, attach: Attach): RunRow {
  const row: RunRow = attach({
    run_id: runId,
    source_file: record.at.file,
    source_line: record.at.line,
    source_format: format,
    label: record.label,
    config_sources: JSON.stringify([`${format}:${record.at.file}:${record.at.line}`, ...(record.excerptOf === undefined ? [] : [`${EXCERPT}${record.excerptOf}`])]),
    engine: null,
    ...record.fields,
  }, record);
  addDerived(row);
  return row;
}

/**
 * Gives every row every column (null where missing), in canonical order. The canonical columns are
 * always there, even when no run has a value, so scripts reading the table see a stable shape.
 */
export function fillColumns(rows: readonly RunRow[]): RunRow[] {
  return takeFilled([...rows]);
}

/** fillColumns that empties `rows` as it goes, so a large table is not held twice (peak RSS). */
export function takeFilled(rows: RunRow[]): RunRow[] {
  const fill = rowFiller(runColumns(rows));
  const filled: RunRow[] = new Array(rows.length);
  for (let i = 0; i < filled.length; i++) {
    filled[i] = fill(rows[i] as RunRow);
    rows[i] = EMPTY;
  }
  rows.length = 0;
  return filled;
}

/** A table's columns in canonical order: every canonical column, then any other a row has. */
export function runColumns(rows: readonly RunRow[]): string[] {
  const seen = new Set<string>(CANONICAL_COLUMNS);
  // plain loops: this runs over every cell of tables with tens of thousands of rows
  for (const r of rows) for (const k in r) seen.add(k);
  return orderColumns(seen);
}

/** Gives a row every one of `columns` (null where missing), in that order. */
export function rowFiller(columns: readonly string[]): (row: RunRow) => RunRow {
  const template = nullRowTemplate(columns);
  return (r) => {
    const out: RunRow = { ...template };
    for (const c of columns) setCell(out, c, ownCell(r, c) ?? null);
    return out;
  };
}

const EMPTY: RunRow = Object.freeze({});

function compareSource(a: RunRow, b: RunRow): number {
  const fa = String(a.source_file);
  const fb = String(b.source_file);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return Number(a.source_line) - Number(b.source_line);
}
