import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc`: a full collection, or a young-generation one with `{ type: 'minor' }`. */
export type Collector = (options?: { type: 'major' | 'minor' }) => void;

let exposed: Collector | null | undefined;

/**
 * V8's collector, exposed on first use (`--expose-gc` set at run time, read from a new context);
 * null when this Node does not offer it. Node documents changing V8 flags after start as
 * unsupported: callers use it only to return memory sooner, and without it the cost is memory,
 * never a wrong result.
 */
export function exposedCollector(): Collector | null {
  if (exposed === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
      exposed = typeof gc === 'function' ? (gc as Collector) : null;
    } catch {
      exposed = null;
    }
  }
  return exposed;
}
