import { FieldMapBuilder } from '../../src/core/records.js';
import type { TimelineEntry } from '../../src/core/timeline-series.js';
import type { SourcePos } from '../../src/core/types.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { lookupTable } from '../../src/core/cells.js';

/** Keys with a timeline column of their own (schema.md §2) or a clearer name. */
const RENAMED: Readonly<Record<string, string>> = lookupTable({
  numActiveRequests: 'running',
  numQueuedRequests: 'waiting',
  iterLatencyMS: 'iter_latency_ms',
  newActiveRequestsQueueLatencyMS: 'new_active_requests_queue_latency_ms',
  gpuMemUsage: 'gpu_mem_usage_bytes',
  cpuMemUsage: 'cpu_mem_usage_bytes',
  pinnedMemUsage: 'pinned_mem_usage_bytes',
  numContextRequests: 'num_ctx_requests',
  numCtxTokens: 'num_ctx_tokens',
  numGenRequests: 'num_generation_requests',
  cacheHitRate: 'prefix_cache_hit_rate',
  acceptanceLength: 'spec_acceptance_length',
  numDraftTokens: 'spec_draft_tokens',
  numAcceptedTokens: 'spec_accepted_tokens',
  // 2026: requests the iteration suspended for KV-cache space (resumed later): its preemptions
  iterSuspendedRequests: 'preemptions',
});

/**
 * A record that carries `hostStepTimeMS` (2026): the executor loop's host time, the log line's
 * `host_step_time`, is `iter_latency_ms` as in the trtllm-serve log; `iterLatencyMS` then keeps
 * its own name, `batch_latency_ms`: it runs from the start of the loop that built the batch to its
 * statistics being recorded, about two loops under the overlap scheduler (`schedulerMode`).
 */
const STEP_TIMED: Readonly<Record<string, string>> = lookupTable({
  ...RENAMED,
  iterLatencyMS: 'batch_latency_ms',
  hostStepTimeMS: 'iter_latency_ms',
});

/** Nested objects and the prefix their keys get (none for the batching stats). */
const NESTED: Readonly<Record<string, string>> = lookupTable({
  inflightBatchingStats: '',
  kvCacheStats: 'kv_',
  specDecodingStats: 'spec_',
  staticBatchingStats: 'static_',
});

export const isObject: (v: JsonValue | undefined) => v is JsonObject = isJsonObject;

/** `avgNumDecodedTokensPerIter` → `avg_num_decoded_tokens_per_iter`. */
export function snakeFromCamel(key: string): string {
  return key
    .replace(/MS$/, 'Ms')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

/** `07-25-2025 16:54:34.140189` → `2025-07-25T16:54:34`; null for anything else. */
export function metricsTime(raw: JsonValue | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d\d)-(\d\d)-(\d{4}) (\d\d:\d\d:\d\d)/.exec(raw);
  return m ? `${m[3]}-${m[1]}-${m[2]}T${m[4]}` : null;
}

/** One `/metrics` iteration-stats object → one timeline entry. */
export function metricsEntry(stats: JsonObject, at: SourcePos): TimelineEntry {
  const b = new FieldMapBuilder();
  const lines = keyLines.get(stats) ?? {};
  const lineOf = (key: string): number => lines[key] ?? at.line;
  b.set('engine', 'trtllm', at.line);
  const time = metricsTime(stats.timestamp);
  if (time !== null) b.set('time', time, lineOf('timestamp'));
  addScalars(stats, '', b, lineOf, typeof stats.hostStepTimeMS === 'number' ? STEP_TIMED : RENAMED);
  if (typeof stats.schedulerMode === 'string') b.set('scheduler_mode', stats.schedulerMode, lineOf('schedulerMode'));
  for (const [key, prefix] of Object.entries(NESTED)) {
    const nested = stats[key];
    if (!isObject(nested)) continue;
    const nestedLines = keyLines.get(nested) ?? {};
    addScalars(nested, prefix, b, (k) => nestedLines[k] ?? lineOf(key));
  }
  const window = soleWindow(stats.kvCacheIterationStats);
  if (window !== null) {
    const windowLines = keyLines.get(window) ?? {};
    addScalars(window, 'kv_', b, (k) => windowLines[k] ?? lineOf('kvCacheIterationStats'));
  }
  const kv = stats.kvCacheStats;
  if (isObject(kv) && typeof kv.usedNumBlocks === 'number' && typeof kv.maxNumBlocks === 'number' && kv.maxNumBlocks > 0) {
    b.set('kv_cache_usage', Number((kv.usedNumBlocks / kv.maxNumBlocks).toPrecision(12)), lineOf('kvCacheStats'));
  }
  const draft = b.fields.spec_draft_tokens;
  const accepted = b.fields.spec_accepted_tokens;
  if (typeof draft === 'number' && typeof accepted === 'number' && draft > 0) {
    b.set('spec_acceptance_rate', Number((accepted / draft).toPrecision(12)), b.lines.spec_draft_tokens ?? at.line);
  }
  return { at, fields: b.fields, lines: b.lines };
}

/**
 * `kvCacheIterationStats` (2026): the KV cache's counters of the iteration (`iterAllocNewBlocks`,
 * `iterCacheHitRate`, …) per attention window size. One window → its counters as `kv_iter_*`
 * columns; several windows (variable sliding-window attention) name no single pool: left out.
 */
function soleWindow(raw: JsonValue | undefined): JsonObject | null {
  if (!isObject(raw)) return null;
  const windows = Object.values(raw);
  const only = windows[0];
  return windows.length === 1 && isObject(only) ? only : null;
}

function addScalars(obj: JsonObject, prefix: string, b: FieldMapBuilder, lineOf: (key: string) => number, renames: Readonly<Record<string, string>> = RENAMED): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'timestamp' || (typeof value !== 'number' && typeof value !== 'boolean')) continue;
    const renamed = prefix !== '' && key === 'iterLatencyMS' ? undefined : renames[key];
    b.set(renamed ?? `${prefix}${snakeFromCamel(key)}`, value, lineOf(key));
  }
}
