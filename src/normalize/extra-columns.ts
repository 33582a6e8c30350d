import type { DiagnosticSink } from '../core/diagnostic.js';
import type { SourcePos } from '../core/types.js';
import type { RunRow } from './runs-table.js';
import { CANONICAL_COLUMNS } from './schema.js';
import { setCell } from '../core/cells.js';

/**
 * Columns no schema names (unknown result labels, engine flags) a table keeps at most. A real
 * campaign has a few hundred (GenAI-Perf's metrics, SGLang's server arguments); a file of garbage
 * tee'd into a result block can give thousands per run, and a table's cells grow as its rows
 * times its columns (200 such files, 400,000 columns: out of memory after 200 s).
 */
export const MAX_EXTRA_COLUMNS = 2000;

const CANONICAL = new Set<string>(CANONICAL_COLUMNS);

/**
 * Leaves out of `rows` the columns no schema names beyond the MAX_EXTRA_COLUMNS found in the most
 * rows (ties: by name), with one warning at the first run that had one; returns the columns kept,
 * or null when all are.
 */
export function capExtraColumns(rows: RunRow[], sink: DiagnosticSink): Set<string> | null {
  const counts = new Map<string, number>();
  for (const r of rows) {
    for (const k in r) if (!CANONICAL.has(k)) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (counts.size <= MAX_EXTRA_COLUMNS) return null;
  const kept = mostCommon(counts, MAX_EXTRA_COLUMNS);
  let first: { at: SourcePos; column: string } | null = null;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as RunRow;
    let drops = false;
    for (const k in r) {
      if (CANONICAL.has(k) || kept.has(k)) continue;
      drops = true;
      first ??= { at: { file: r.source_file as never, line: Number(r.source_line), column: 1 }, column: k };
    }
    if (!drops) continue;
    const out: RunRow = {};
    for (const k in r) if (CANONICAL.has(k) || kept.has(k)) setCell(out, k, r[k] ?? null);
    rows[i] = out;
  }
  if (first) sink.report('normalize/too-many-columns', first.at, counts.size - MAX_EXTRA_COLUMNS, MAX_EXTRA_COLUMNS, first.column);
  return kept;
}

/** The `max` names of the highest counts (ties: by name), so what a cap keeps does not depend on reading order. */
export function mostCommon(counts: ReadonlyMap<string, number>, max: number): Set<string> {
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Set(ranked.slice(0, max).map(([name]) => name));
}
