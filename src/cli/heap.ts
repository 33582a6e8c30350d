import { setFlagsFromString } from 'node:v8';
import { exposedCollector } from '../core/gc.js';

/** Percent by which V8 may grow the heap past what survived the last full collection. */
const HEAP_GROWING_PERCENT = 30;

/**
 * V8 lets a short-lived process's heap grow up to 4× what it holds before collecting; building the
 * runs table of a large campaign then peaks far above its live size. A smaller growth factor costs
 * a few more collections and keeps peak RSS near the live size (issue 7: ≤ 300 MB). The flag is
 * process-wide, so the scan's worker threads get it too. Call once, before any work.
 *
 * Node documents changing V8 flags after start as unsupported; this one and `--expose-gc`
 * (core/gc.ts) are measured by `npm run bench` (peak RSS), and if a Node release ignores them the
 * cost is memory, never a wrong result.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Below this resident size a phase's garbage cannot take the process near the 300 MB bound, and a
 * full collection (30–50 ms each on a heap of 20,000 runs) would only cost time.
 */
const COLLECT_ABOVE_RSS_MB = 200;

/**
 * A full collection between two phases of a large job, when the process is large enough for it to
 * matter: the garbage of the phase just done (tens of MB when the runs table of tens of thousands
 * of runs is built) would otherwise be collected only after the next phase has grown the heap past
 * it. Does nothing when V8 does not offer it.
 */
export function collectGarbage(): void {
  if (process.memoryUsage.rss() < COLLECT_ABOVE_RSS_MB * 1024 * 1024) return;
  exposedCollector()?.();
}
