import { labelKey } from './index.js';
import type { ServingBlock } from './visitor.js';

/** Labels only SGLang's bench_serving prints inside its block (formats.md §5.1). */
const SGLANG_ONLY = new Set([
  'backend',
  'traffic request rate',
  'max request concurrency',
  'max reqeuest concurrency',
  'total generated tokens (retokenized)',
  'total input text tokens',
  'total input vision tokens',
  'concurrency',
  'accept length',
  'mean e2e latency (ms)',
]);

/**
 * vLLM and SGLang print the same `Serving Benchmark Result` header; the labels inside tell which
 * client wrote a block, so one file may mix both and each grammar claims only its own blocks.
 */
export function isSglangBlock(block: ServingBlock): boolean {
  // the Rust `vllm-bench`'s multi-turn block prints `Concurrency:` too
  if (/^Multi-Turn\b/i.test(block.title)) return false;
  return block.entries.some((e) => SGLANG_ONLY.has(labelKey(e.label)));
}
