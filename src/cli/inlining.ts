import { setFlagsFromString } from 'node:v8';

/**
 * Bytecode V8's optimizing compiler may inline into one function, in all (V8's default is 920).
 * A scan runs for seconds on code from dozens of grammars, and each thread optimizes that code
 * anew: on 20,000 small files the optimizing compiler took a quarter of the process's CPU time,
 * on the cores the scan itself needs. With this budget it took less, and the scan took about 6 %
 * less time (`npm run bench`; docs/performance-history.md, thirty-fourth session).
 */
const INLINED_BYTECODE_BUDGET = 300;

/**
 * Sets the inlining budget for the whole process, its worker threads included. Call once, before
 * any work. Node documents changing V8 flags after start as unsupported; if a Node release ignores
 * this one, the cost is time, never a wrong result.
 */
export function limitInlining(): void {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_BUDGET}`);
}
