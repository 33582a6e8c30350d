import { setFlagsFromString } from 'node:v8';

const DEFAULTS = Object.freeze({
  /** V8 otherwise lets the heap grow up to 4× its live size before collecting (issue 7: peak RSS ≤ 300 MB). */
  heapGrowingPercent: 10,
});

/**
 * Makes V8 collect garbage before the heap grows far past its live size. A scan of tens of thousands
 * of files builds and drops large intermediate tables; with V8's default growth the peak RSS is set by
 * garbage, not by data. The flag is read each time V8 sizes the heap, so setting it at start-up takes
 * effect (process-wide, worker threads included).
 */
export function tuneHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${DEFAULTS.heapGrowingPercent}`);
}
