import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';

/** The timeline table's leading columns (schema.md §2), in output order; other fields follow sorted. */
export const TIMELINE_COLUMNS = [
  'source_file', 'source_line', 'engine', 'time', 'prompt_throughput', 'gen_throughput', 'running', 'waiting',
  'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length',
] as const;

export type TimelineRow = Record<string, FieldValue>;

const INDEX = new Map<string, number>(TIMELINE_COLUMNS.map((c, i) => [c, i]));

/**
 * One row per server stats line, from any engine's grammar (vLLM, SGLang, TensorRT-LLM): every
 * row has every column (null where missing), rows sorted by file then line, so output is stable.
 */
export function toTimelineRows(records: readonly ParsedRecord[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const { record } of records) {
    if (record.kind !== 'timeline') continue;
    rows.push({ ...record.fields, source_file: record.at.file, source_line: record.at.line });
  }
  rows.sort(compareSource);
  const seen = new Set<string>(TIMELINE_COLUMNS);
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const columns = [...seen].sort(compareColumns);
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
}

function compareColumns(a: string, b: string): number {
  const ia = INDEX.get(a);
  const ib = INDEX.get(b);
  if (ia !== undefined || ib !== undefined) return (ia ?? Infinity) - (ib ?? Infinity);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareSource(a: TimelineRow, b: TimelineRow): number {
  const fa = String(a.source_file);
  const fb = String(b.source_file);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return Number(a.source_line) - Number(b.source_line);
}
