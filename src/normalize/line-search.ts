/** Searches over records of one file kept in line order (attach-in-file.ts, spec-rates.ts). */

/** A record of a file with where it came from (`origin:file:line`, for `config_sources`). */
export interface Located<R> {
  readonly record: R;
  readonly source: string;
}

type AtLine = Located<{ readonly at: { readonly line: number } }>;

/** How many of `items` (ascending by `lineOf`) are on a line above `line`. */
export function countBelow<T>(items: readonly T[], line: number, lineOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lineOf(items[mid] as T) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const lineOfNumber = (l: number): number => l;
export const lineOfLocated = (item: AtLine): number => item.record.at.line;

/** The last of `items` (in line order) above `line` and below `after`; of several on one line, the first given. */
export function nearestBefore<T extends AtLine>(items: readonly T[], line: number, after: number): T | null {
  let k = countBelow(items, line, lineOfLocated) - 1;
  const at = k < 0 ? 0 : lineOfLocated(items[k] as T);
  if (k < 0 || at <= after) return null;
  while (k > 0 && lineOfLocated(items[k - 1] as T) === at) k--;
  return items[k] as T;
}
