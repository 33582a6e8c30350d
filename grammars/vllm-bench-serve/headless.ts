import { labelKey, latencyColumn } from '../_shared/serving-block/index.js';
import type { LooseEntry } from '../_shared/serving-block/visitor.js';
import { VLLM_BLOCK_LABELS, VLLM_PREAMBLE_LABELS } from './labels.js';

/** Fewer result lines than this outside a block are a sentence's, not a block's. */
const MIN_HEADLESS_LINES = 2;

/** A line only a result block prints (`Successful requests:`, `Mean TTFT (ms):`), not the lines printed before one. */
function isResultLine(e: LooseEntry): boolean {
  const key = labelKey(e.label);
  return (VLLM_BLOCK_LABELS[key] !== undefined && VLLM_PREAMBLE_LABELS[key] === undefined) || latencyColumn(key) !== null;
}

/**
 * The loose lines between two blocks, split where a block's result lines end: a paste that lost
 * its `==== Serving Benchmark Result ====` line leaves them there, and its `Maximum request
 * concurrency` would otherwise be read as the next block's preamble. `headless` holds those
 * result lines (none when fewer than two), `after` the lines below the last of them.
 */
export function splitAtHeadlessResults(loose: readonly LooseEntry[]): { readonly headless: LooseEntry[]; readonly after: LooseEntry[] } {
  const results = loose.filter(isResultLine);
  if (results.length < MIN_HEADLESS_LINES) return { headless: [], after: [...loose] };
  const last = (results.at(-1) as LooseEntry).line;
  return { headless: results, after: loose.filter((e) => e.line > last) };
}
