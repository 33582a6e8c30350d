/** Median of a non-empty list (mean of the two middle values for even lengths). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** mulberry32: a tiny seeded PRNG, so intervals are identical from run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: seeds the bootstrap from the data's identity, not from the clock. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Percentile bootstrap 95% interval of `stat(median(a), median(b))`, resampling both groups with
 * replacement. Null when both groups hold a single value (no spread to resample).
 *
 * Each resample is drawn into one reused buffer and its median found by selection, not by
 * sorting a new array: with a campaign's thousands of repeats in a group, 2,000 sorted copies a
 * group and metric took `compare` minutes (20,000 runs: 136 s). The draws and the medians are the
 * same as sorting would give, so the intervals are too.
 */
export function bootstrapCI(
  a: readonly number[],
  b: readonly number[],
  stat: (ma: number, mb: number) => number,
  seed: number,
  resamples = 2000,
): { low: number; high: number } | null {
  if (a.length === 0 || b.length === 0 || (a.length === 1 && b.length === 1)) return null;
  const rand = seededRandom(seed);
  const sampleA = new Float64Array(a.length);
  const sampleB = new Float64Array(b.length);
  const draw = (xs: readonly number[], into: Float64Array): Float64Array => {
    for (let j = 0; j < xs.length; j++) into[j] = xs[Math.floor(rand() * xs.length)] as number;
    return into;
  };
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const s = stat(medianInPlace(draw(a, sampleA)), medianInPlace(draw(b, sampleB)));
    if (Number.isFinite(s)) stats.push(s);
  }
  if (stats.length === 0) return null;
  stats.sort((x, y) => x - y);
  const at = (q: number): number => stats[Math.min(stats.length - 1, Math.max(0, Math.round(q * (stats.length - 1))))] as number;
  return { low: at(0.025), high: at(0.975) };
}

/** The median of a non-empty buffer, as `median` gives it; the buffer is left reordered. */
export function medianInPlace(xs: Float64Array): number {
  const n = xs.length;
  const mid = n >> 1;
  const upper = selectInPlace(xs, mid);
  if (n % 2 === 1) return upper;
  // everything before `mid` is now at most the upper middle value: the lower middle is their largest
  let lower = xs[0] as number;
  for (let i = 1; i < mid; i++) if ((xs[i] as number) > lower) lower = xs[i] as number;
  return (lower + upper) / 2;
}

/** The k-th smallest value (0-based) by quickselect: after it, xs[i] ≤ xs[k] for i < k and ≥ for i > k. */
function selectInPlace(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((xs[i] as number) < pivot) i++;
      while ((xs[j] as number) > pivot) j--;
      if (i <= j) {
        const t = xs[i] as number;
        xs[i] = xs[j] as number;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return xs[k] as number;
}
