/** A legend name at most this many characters long fits the legend's 260 px at its 11 px font. */
const NAME_LIMIT = 40;

/**
 * A short legend name for each of `paths` (files relative to the scanned folder): its last path
 * segments, as few as tell it from every other path (`eagle3-serve.log`, or `k8/serve.log` beside
 * `k7/serve.log`). A name still longer than the legend's room loses its middle, not its end (the
 * file name), which is what Vega's own cut at the legend's limit would drop. Two paths never get
 * one name.
 */
export function shortPathNames(paths: readonly string[], limit = NAME_LIMIT): Map<string, string> {
  const unique = [...new Set(paths)];
  const segments = new Map(unique.map((p) => [p, p.split('/')]));
  const tail = (p: string, k: number): string => (segments.get(p) ?? []).slice(-k).join('/');
  const names = new Map<string, string>();
  for (const p of unique) {
    const parts = segments.get(p) ?? [];
    let k = 1;
    while (k < parts.length && unique.some((q) => q !== p && tail(q, k) === tail(p, k))) k++;
    names.set(p, tail(p, k));
  }
  const cut = new Map([...names].map(([p, name]) => [p, middleCut(name, limit)]));
  // a cut that made two names one keeps the whole names (Vega then cuts their ends)
  return new Set(cut.values()).size === cut.size ? cut : names;
}

/** `name` with its middle replaced by `…` so it is at most `limit` characters: its start and its end kept. */
function middleCut(name: string, limit: number): string {
  if (name.length <= limit) return name;
  const end = Math.ceil((limit - 1) * 0.6);
  return `${name.slice(0, limit - 1 - end)}…${name.slice(name.length - end)}`;
}
