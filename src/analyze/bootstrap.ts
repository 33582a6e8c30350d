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

/**
 * Percentile bootstrap 95% interval of `stat(median(a), median(b))`, resampling both groups with
 * replacement. Null when both groups hold a single value (no spread to resample).
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
  const medianA = resampledMedians(a, rand);
  const medianB = resampledMedians(b, rand);
  // no NaN is kept; -0 and 0 are one value to selection, which only a statistic that can be 0
  // would show (a speedup never is)
  const kept = new Float64Array(resamples);
  let count = 0;
  for (let i = 0; i < resamples; i++) {
    const s = stat(medianA(), medianB());
    if (Number.isFinite(s)) kept[count++] = s;
  }
  if (count === 0) return null;
  const stats = kept.subarray(0, count);
  // the two percentiles' places in sorted order, found by selection (sorting 2,000 values cost more than the draws)
  const rank = (q: number): number => Math.min(count - 1, Math.max(0, Math.round(q * (count - 1))));
  return { low: selectInPlace(stats, rank(0.025)), high: selectInPlace(stats, rank(0.975)) };
}

/**
 * Draws one resample of `xs` (with replacement, `xs.length` draws of `rand`) at each call and gives
 * its median, the very value `median` of the drawn values gives. The draws are counted by their
 * rank among the sorted values, and the counts walked to the middle: no array of draws to order.
 * With a campaign's thousands of repeats in a group, 2,000 sorted copies a group and metric took
 * `compare` minutes (20,000 runs: 136 s); selection in a reused buffer was 2× slower than this.
 */
function resampledMedians(xs: readonly number[], rand: () => number): () => number {
  const n = xs.length;
  // a single run (most configurations of a sweep) is its own median: its draw is taken all the same
  const only = xs[0] as number;
  if (n === 1)
    return () => {
      rand();
      return only;
    };
  if (n <= SMALL_GROUP) return smallResampledMedians(xs, rand);
  const order = Array.from(xs, (_, i) => i).sort((i, j) => (xs[i] as number) - (xs[j] as number));
  const sorted = Float64Array.from(order, (i) => xs[i] as number);
  const rankOf = new Uint32Array(n);
  order.forEach((i, rank) => {
    rankOf[i] = rank;
  });
  const counts = new Uint32Array(n);
  const mid = n >> 1;
  // the 0-based positions of the middle draws: one for an odd length, two for an even one
  const lowerMiddle = n % 2 === 1 ? mid : mid - 1;
  return () => {
    counts.fill(0);
    for (let j = 0; j < n; j++) (counts[rankOf[Math.floor(rand() * n)] as number] as number)++;
    let before = 0; // draws of the ranks below `rank`
    let rank = 0;
    while (before + (counts[rank] as number) <= lowerMiddle) before += counts[rank++] as number;
    const lower = sorted[rank] as number;
    if (n % 2 === 1) return lower;
    while (before + (counts[rank] as number) <= mid) before += counts[rank++] as number;
    return (lower + (sorted[rank] as number)) / 2;
  };
}

/** Groups up to this size draw into a small sorted buffer: cheaper than clearing and walking counts. */
const SMALL_GROUP = 16;

/** resampledMedians for a few runs (a sweep's repeats): each draw is inserted in order, then the middle read. */
function smallResampledMedians(xs: readonly number[], rand: () => number): () => number {
  const n = xs.length;
  const drawn = new Float64Array(n);
  const mid = n >> 1;
  return () => {
    for (let j = 0; j < n; j++) {
      const v = xs[Math.floor(rand() * n)] as number;
      let at = j;
      while (at > 0 && (drawn[at - 1] as number) > v) {
        drawn[at] = drawn[at - 1] as number;
        at--;
      }
      drawn[at] = v;
    }
    return n % 2 === 1 ? (drawn[mid] as number) : ((drawn[mid - 1] as number) + (drawn[mid] as number)) / 2;
  };
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
