/**
 * EvalScope logs through Python `logging` (`evalscope/utils/logger.py`): the first line of each
 * message carries `2025-01-01 12:00:00,000 - evalscope - INFO - `; the table lines of a multi-line
 * message follow bare. Removed so that a table's first line reads like every other.
 */
const LOG_PREFIX = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)? - [\w.]+ - [A-Z]+ - /;

export function withoutLogPrefix(line: string): string {
  return line.length > 20 && line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57 ? line.replace(LOG_PREFIX, '') : line;
}

/** Cells that say "no value": rich's `-`, `N/A`, an empty cell. */
const NO_VALUE = /^(?:|-|N\/A|n\/a|None)$/;
const NUMBER = /^[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * A printed cell as a number: `1,024.5`, `97.5%` (as 97.5), `1.2e-05`; `inf`/`INF` as Infinity.
 * `undefined` for a cell with no value or `nan`; `null` for text that is not a number.
 */
export function cellNumber(cell: string): number | null | undefined {
  const t = cell.trim().replace(/%$/, '').trim();
  if (NO_VALUE.test(t) || /^[-+]?nan$/i.test(t)) return undefined;
  if (/^[-+]?inf(?:inity)?$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (!NUMBER.test(t)) return null;
  const v = Number(t.replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
}

/** A header or metric name compared without spacing or case: rich may wrap `Avg Lat.(s)` anywhere. */
export function squashed(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}
