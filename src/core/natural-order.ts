/** The order people read labels with numbers in: `K=2` before `K=16`, `8B` before `70B`. */

/**
 * Numbers in numeric order, before any other text; other text with the numbers in it read as
 * numbers (`Llama-3.1-8B` before `Llama-3.1-70B`, `K=2` before `K=16`), so axes and legends read
 * naturally; ties in code-point order. A total order (transitive), so every sort agrees.
 */
export function naturalCompare(a: string, b: string): number {
  const na = numberIn(a);
  const nb = numberIn(b);
  if (na !== null || nb !== null) {
    if (na === null) return 1;
    if (nb === null) return -1;
    return na - nb || codePoints(a, b);
  }
  const pa = a.match(CHUNKS) ?? [];
  const pb = b.match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const order = compareChunks(pa[i] as string, pb[i] as string);
    if (order !== 0) return order;
  }
  return pa.length - pb.length || codePoints(a, b);
}

/** The number a whole text is (`64`, `0.5`, `-1e3`), or null. */
function numberIn(t: string): number | null {
  if (t.trim() === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function codePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs of digits and runs of anything else. */
const CHUNKS = /\d+|\D+/g;

function compareChunks(a: string, b: string): number {
  const digits = (t: string) => t.charCodeAt(0) >= 48 && t.charCodeAt(0) <= 57;
  if (digits(a) && digits(b)) {
    // as numbers of any length: without leading zeros, the longer is the larger
    const x = a.replace(/^0+(?=\d)/, '');
    const y = b.replace(/^0+(?=\d)/, '');
    if (x.length !== y.length) return x.length - y.length;
    return codePoints(x, y);
  }
  return codePoints(a, b);
}

/** Distinct values in natural order (naturalCompare): a nominal scale's domain, as `sort`. */
export function naturalOrder(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(naturalCompare);
}
