import { seriesLine, seriesValue, type TimelineSeries } from '../core/timeline-series.js';
import type { FieldValue, RelPath } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { nullRowTemplate, setCell } from '../core/cells.js';
import type { DiagnosticSink } from '../core/diagnostic.js';
import { mostCommon } from './extra-columns.js';
import type { RunServedLines } from './server-aggregates.js';
import { timelineRunIds } from './timeline-runs.js';

/** The timeline table's leading columns (schema.md §2), in output order; other fields follow sorted. */
export const TIMELINE_COLUMNS = [
  'source_file', 'source_line', 'engine', 'time', 'prompt_throughput', 'gen_throughput', 'running', 'waiting',
  'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length', 'run_id',
] as const;

export type TimelineRow = Record<string, FieldValue>;

const INDEX = new Map<string, number>(TIMELINE_COLUMNS.map((c, i) => [c, i]));

/** The timeline table without its rows in memory: each row is built when it is read (a long log has hundreds of thousands). */
export interface TimelineTable {
  /** Schema columns first, then the others sorted; only columns some line has a value in. */
  readonly columns: readonly string[];
  readonly length: number;
  /** Row `i` in table order (file, then line), with every column (null where missing). */
  row(i: number): TimelineRow;
  /** One cell of row `i` (null where the line has none), without building the row. */
  cell(i: number, column: string): FieldValue;
}

/**
 * One row per server stats line, from any engine's grammar (vLLM, SGLang, TensorRT-LLM): every
 * row has every column (null where missing), rows sorted by file then line, so output is stable.
 * `served` (buildRuns) says which lines are a run's: their `run_id`.
 */
export function timelineTable(records: readonly ParsedRecord[], sink?: DiagnosticSink, served: readonly RunServedLines[] = []): TimelineTable {
  const parts: Part[] = [];
  for (const { record } of records) if (record.kind === 'timeline') parts.push({ file: record.at.file, series: record.series });
  const locate = rowLocator(parts);
  const columns = [...new Set<string>([...TIMELINE_COLUMNS, ...otherColumns(parts, sink)])].sort(compareColumns);
  const template = nullRowTemplate(columns);
  const runIdOf = timelineRunIds(served);
  const cellOf = (p: Part, e: number, c: string): FieldValue | undefined =>
    c === 'source_file' ? p.file : c === 'source_line' ? seriesLine(p.series, e) : c === 'run_id' ? (runIdOf(p.file, p.series, e) ?? undefined) : seriesValue(p.series, c, e);
  return {
    columns,
    length: locate.length,
    row(i) {
      const p = part(parts, locate.part(i));
      const e = locate.entry(i);
      const row: TimelineRow = { ...template };
      for (const c of columns) {
        const v = cellOf(p, e, c);
        if (v !== undefined) setCell(row, c, v);
      }
      return row;
    },
    cell(i, column) {
      return cellOf(part(parts, locate.part(i)), locate.entry(i), column) ?? null;
    },
  };
}

/**
 * Columns past the schema's a timeline table has at most. Each log's series holds at most
 * MAX_SERIES_COLUMNS; logs that each name others of their own would give a cell per line and
 * column of them all.
 */
export const MAX_TIMELINE_COLUMNS = 1024;

/**
 * The columns of the parts past the schema's: those the most logs have, MAX_TIMELINE_COLUMNS at
 * most (ties: by name), with a warning at the first log that had one left out.
 */
function otherColumns(parts: readonly Part[], sink: DiagnosticSink | undefined): string[] {
  const counts = new Map<string, number>();
  for (const p of parts) for (const c of p.series.columns.keys()) if (!INDEX.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size <= MAX_TIMELINE_COLUMNS) return [...counts.keys()];
  const kept = mostCommon(counts, MAX_TIMELINE_COLUMNS);
  for (const p of parts) {
    const left = [...p.series.columns.keys()].find((c) => !INDEX.has(c) && !kept.has(c));
    if (left === undefined) continue;
    sink?.report('normalize/too-many-columns', { file: p.file, line: seriesLine(p.series, 0), column: 1 }, counts.size - MAX_TIMELINE_COLUMNS, MAX_TIMELINE_COLUMNS, left, 'logs');
    break;
  }
  return [...kept];
}

/** Where row `i` of the table is: entry `entry(i)` of part `part(i)`. */
interface RowLocator {
  readonly length: number;
  part(i: number): number;
  entry(i: number): number;
}

const part = (parts: readonly Part[], k: number): Part => parts[k] as Part;

/**
 * Rows in table order (file, then line). The parts of a scan are mostly in that order already
 * (files sorted, each read top to bottom): then a row is found from the parts' offsets, with no
 * array as long as the table. Otherwise the rows are sorted once (three 32-bit integers a row).
 */
function rowLocator(parts: readonly Part[]): RowLocator {
  const offsets = new Float64Array(parts.length + 1);
  parts.forEach((p, k) => {
    offsets[k + 1] = (offsets[k] as number) + p.series.length;
  });
  const length = offsets[parts.length] as number;
  if (inTableOrder(parts)) {
    // rows are read in order: the part of the last row asked is tried first
    let k = 0;
    const partOf = (i: number): number => {
      if (i < (offsets[k] as number) || i >= (offsets[k + 1] as number)) k = upperBound(offsets, i) - 1;
      return k;
    };
    return { length, part: partOf, entry: (i) => i - (offsets[partOf(i)] as number) };
  }
  // parts ranked by file (parts of one file share a rank), so rows sort by two integer compares
  const byFile = parts.map((_, k) => k).sort((a, b) => compareText(part(parts, a).file, part(parts, b).file) || a - b);
  const rank = new Int32Array(parts.length);
  byFile.forEach((k, r) => {
    const previous = byFile[r - 1];
    rank[k] = previous !== undefined && part(parts, previous).file === part(parts, k).file ? (rank[previous] as number) : r;
  });
  // row r of the concatenation is entry entryOf[r] of part partOf[r]
  const partOf = new Int32Array(length);
  const entryOf = new Int32Array(length);
  let r = 0;
  parts.forEach((p, k) => {
    for (let i = 0; i < p.series.length; i++, r++) {
      partOf[r] = k;
      entryOf[r] = i;
    }
  });
  const rankOf = (r: number): number => rank[partOf[r] as number] as number;
  const lineOf = (r: number): number => seriesLine(part(parts, partOf[r] as number).series, entryOf[r] as number);
  const order = new Uint32Array(length).map((_, i) => i);
  order.sort((a, b) => rankOf(a) - rankOf(b) || lineOf(a) - lineOf(b) || a - b);
  return { length, part: (i) => partOf[order[i] as number] as number, entry: (i) => entryOf[order[i] as number] as number };
}

/** Files in order, each part's lines increasing, and a file's parts one after the other in the file. */
function inTableOrder(parts: readonly Part[]): boolean {
  for (let k = 0; k < parts.length; k++) {
    const { file, series } = part(parts, k);
    for (let i = 1; i < series.length; i++) if (seriesLine(series, i) < seriesLine(series, i - 1)) return false;
    const previous = parts[k - 1];
    if (previous === undefined) continue;
    if (compareText(previous.file, file) > 0) return false;
    if (previous.file === file && previous.series.length > 0 && series.length > 0 && seriesLine(series, 0) < seriesLine(previous.series, previous.series.length - 1)) return false;
  }
  return true;
}

/** The first index whose offset is above `i`. */
function upperBound(offsets: Float64Array, i: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] as number) <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One file's stats lines, as one grammar read them. */
interface Part {
  readonly file: RelPath;
  readonly series: TimelineSeries;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareColumns(a: string, b: string): number {
  const ia = INDEX.get(a);
  const ib = INDEX.get(b);
  if (ia !== undefined || ib !== undefined) return (ia ?? Infinity) - (ib ?? Infinity);
  return a < b ? -1 : a > b ? 1 : 0;
}
