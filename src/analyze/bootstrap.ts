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
  const pick = (xs: readonly number[]): number[] => xs.map(() => xs[Math.floor(rand() * xs.length)] as number);
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const s = stat(median(pick(a)), median(pick(b)));
    if (Number.isFinite(s)) stats.push(s);
  }
  if (stats.length === 0) return null;
  stats.sort((x, y) => x - y);
  const at = (q: number): number => stats[Math.min(stats.length - 1, Math.max(0, Math.round(q * (stats.length - 1))))] as number;
  return { low: at(0.025), high: at(0.975) };
}
