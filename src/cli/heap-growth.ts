import { setFlagsFromString } from 'node:v8';

/** Percent by which V8 may grow the heap past what survived the last full collection. */
const HEAP_GROWING_PERCENT = 30;

/**
 * V8 lets a short-lived process's heap grow up to 4× what it holds before collecting; building the
 * runs table of a large campaign then peaks far above its live size. A smaller growth factor costs
 * a few more collections and keeps peak RSS near the live size (issue 7: ≤ 300 MB). The flag is
 * process-wide, so the scan's worker threads get it too. Call once, before any work.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
