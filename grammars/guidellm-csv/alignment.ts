import { readNumber } from '../../src/parse/values.js';
import { type Column, DISTRIBUTION_STATS, isList, isStat, STATUSES, type Status, type StatColumn } from './columns.js';

/** How a row's cells are read: under the header, under the header rebuilt for its request counts, or not past its leading fields. */
export type Placement = { readonly kind: 'header' | 'realigned'; readonly columns: readonly Column[] } | { readonly kind: 'misaligned' };

type Counts = Partial<Record<Status, number>>;

/**
 * 0.4+ writes a distribution only for the statuses that have requests (a non-zero sum), and the
 * header of the first benchmark only until the header became the union of every benchmark's
 * columns (a benchmark without a column leaves its cell empty): in the older files a benchmark
 * with other statuses than the first has its cells shifted. Such a row is rebuilt from the
 * header's metrics and its own request counts, when the rebuilt columns fit its cells exactly;
 * 0.2 / 0.3 (`statusesVary` false) write every status of every metric, always in place.
 */
export function placeRow(cells: readonly string[], header: readonly Column[], statusesVary: boolean): Placement {
  if (cells.length <= header.length && fits(cells, header, statusesVary)) return { kind: 'header', columns: header };
  if (!statusesVary) return { kind: 'misaligned' };
  const rebuilt = columnsForCounts(header, requestCounts(cells, header));
  if (rebuilt.length === cells.length && fits(cells, rebuilt, true)) return { kind: 'realigned', columns: rebuilt };
  return { kind: 'misaligned' };
}

/** The columns before the first distribution: run information, timings and counts, written for every benchmark. */
export function leadingFields(header: readonly Column[]): readonly Column[] {
  const first = header.findIndex(isStat);
  return first < 0 ? header : header.slice(0, first);
}

export function requestCounts(cells: readonly string[], columns: readonly Column[]): Counts {
  const counts: Counts = {};
  columns.forEach((c, i) => {
    if (c.kind !== 'field' || !(STATUSES as readonly string[]).includes(c.name)) return;
    const n = readNumber((cells[i] ?? '').trim());
    if (n.ok && n.rest === '' && n.value !== null) counts[c.name as Status] = n.value;
  });
  return counts;
}

/**
 * Whether cells stand under these columns: a percentile list only under `Percentiles` and no list
 * or JSON under another statistic; where statuses vary, a cell of a status without requests is
 * empty, and a status with requests has columns.
 */
function fits(cells: readonly string[], columns: readonly Column[], statusesVary: boolean): boolean {
  const counts = statusesVary ? requestCounts(cells, columns) : {};
  const shaped = cells.every((raw, i) => {
    const column = columns[i];
    const cell = raw.trim();
    if (!isStat(column) || cell === '') return true;
    if (column.stat === 'percentiles' ? !isList(cell) : /^[[{]/.test(cell)) return false;
    return counts[column.status] !== 0;
  });
  if (!shaped || !statusesVary) return shaped;
  return STATUSES.every((s) => !(counts[s] ?? 0) || columns.some((c) => isStat(c) && c.status === s) || !columns.some(isStat));
}

/**
 * The header's columns as the row would have written them: each metric of the header, in its
 * order, for every status with requests in this row, unless the header's benchmark had requests
 * of that status and no distribution of it for this metric (a sum of zero: the time to first
 * token of errored requests that never got one).
 */
function columnsForCounts(header: readonly Column[], counts: Counts): Column[] {
  const stats = header.filter(isStat);
  const headerHas = (metric: string, status: Status) => stats.some((c) => c.metric === metric && c.status === status);
  const headerStatus = (status: Status) => stats.some((c) => c.status === status);
  const out: Column[] = [];
  const placed = new Set<string>();
  for (const column of header) {
    if (!isStat(column)) {
      out.push(column);
      continue;
    }
    if (placed.has(column.metric)) continue;
    placed.add(column.metric);
    if (headerHas(column.metric, 'total')) out.push(...stats.filter((c) => c.metric === column.metric && c.status === 'total'));
    for (const status of STATUSES) {
      if (!(counts[status] ?? 0) || (headerStatus(status) && !headerHas(column.metric, status))) continue;
      out.push(...DISTRIBUTION_STATS.map((stat): StatColumn => ({ ...column, label: `${column.metric} ${status} ${stat}`, status, stat })));
    }
  }
  return out;
}
