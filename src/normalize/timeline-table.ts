import { seriesLine, seriesValue, type TimelineSeries } from '../core/timeline-series.js';
import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { nullRowTemplate, setCell } from '../core/cells.js';

/** The timeline table's leading columns (schema.md §2), in output order; other fields follow sorted. */
export const TIMELINE_COLUMNS = [
  'source_file', 'source_line', 'engine', 'time', 'prompt_throughput', 'gen_throughput', 'running', 'waiting',
  'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length',
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
 */
export function timelineTable(records: readonly ParsedRecord[]): TimelineTable {
  const parts: Part[] = [];
  for (const { record } of records) if (record.kind === 'timeline') parts.push({ file: record.at.file, series: record.series });
  const part = (k: number): Part => parts[k] as Part;
  // parts ranked by file (parts of one file share a rank), so rows sort by two integer compares
  const byFile = parts.map((_, k) => k).sort((a, b) => compareText(part(a).file, part(b).file) || a - b);
  const rank = new Int32Array(parts.length);
  byFile.forEach((k, r) => {
    const previous = byFile[r - 1];
    rank[k] = previous !== undefined && part(previous).file === part(k).file ? (rank[previous] as number) : r;
  });
  // row r of the concatenation is entry entryOf[r] of part partOf[r]
  const length = parts.reduce((n, p) => n + p.series.length, 0);
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
  const lineOf = (r: number): number => seriesLine(part(partOf[r] as number).series, entryOf[r] as number);
  const order = new Uint32Array(length).map((_, i) => i);
  order.sort((a, b) => rankOf(a) - rankOf(b) || lineOf(a) - lineOf(b) || a - b);
  const seen = new Set<string>(TIMELINE_COLUMNS);
  for (const p of parts) for (const c of p.series.columns.keys()) seen.add(c);
  const columns = [...seen].sort(compareColumns);
  const template = nullRowTemplate(columns);
  const cellOf = (p: Part, e: number, c: string): FieldValue | undefined => (c === 'source_file' ? p.file : c === 'source_line' ? seriesLine(p.series, e) : seriesValue(p.series, c, e));
  return {
    columns,
    length,
    row(i) {
      const at = order[i] as number;
      const p = part(partOf[at] as number);
      const e = entryOf[at] as number;
      const row: TimelineRow = { ...template };
      for (const c of columns) {
        const v = cellOf(p, e, c);
        if (v !== undefined) setCell(row, c, v);
      }
      return row;
    },
    cell(i, column) {
      const at = order[i] as number;
      return cellOf(part(partOf[at] as number), entryOf[at] as number, column) ?? null;
    },
  };
}

/** One file's stats lines, as one grammar read them. */
interface Part {
  readonly file: string;
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
