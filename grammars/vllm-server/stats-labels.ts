/**
 * The labels of vLLM's periodic lines and the column and unit each one's value has. A label no
 * table knows is not dropped: `columnOfUnknownLabel` names its column (`Future gauge` →
 * `future_gauge`) and its value is read by whichever unit follows it (stats.ts), so a field a new
 * vLLM adds shows up in the timeline before this grammar learns its name.
 */
import { lookupTable } from '../../src/core/cells.js';

/** `any`: a value whose unit is read from the value itself (a label no table knows). */
export type Unit = 'tok/s' | 'reqs' | 'pct' | 'fraction' | 'count' | 'tokens' | 'list' | 'number' | 'any';

export interface LabelSpec {
  readonly column: string;
  readonly unit: Unit;
}

export type LabelTable = Readonly<Record<string, LabelSpec>>;

/**
 * V0 and V1 stats lines. V1 (vllm/v1/metrics/loggers.py, LoggingStatLogger.log) prints
 * `Deferred` when requests wait on a transient constraint (they are also counted in `Waiting`),
 * `Preemptions` when the interval had any, `Corrupted` with VLLM_COMPUTE_NANS_IN_LOGITS set (the
 * interval's finished requests with NaNs in their logits), `MM cache hit rate` once multimodal
 * inputs met the processor cache.
 */
export const STATS_LABELS: LabelTable = lookupTable({
  'Avg prompt throughput': { column: 'prompt_throughput', unit: 'tok/s' },
  'Avg generation throughput': { column: 'gen_throughput', unit: 'tok/s' },
  Running: { column: 'running', unit: 'reqs' },
  Swapped: { column: 'swapped', unit: 'reqs' },
  Pending: { column: 'waiting', unit: 'reqs' },
  Waiting: { column: 'waiting', unit: 'reqs' },
  Deferred: { column: 'deferred', unit: 'reqs' },
  Preemptions: { column: 'preemptions', unit: 'count' },
  'GPU KV cache usage': { column: 'kv_cache_usage', unit: 'pct' },
  'CPU KV cache usage': { column: 'cpu_kv_cache_usage', unit: 'pct' },
  'Prefix cache hit rate': { column: 'prefix_cache_hit_rate', unit: 'pct' },
  Corrupted: { column: 'corrupted', unit: 'reqs' },
  'External prefix cache hit rate': { column: 'external_prefix_cache_hit_rate', unit: 'pct' },
  'MM cache hit rate': { column: 'mm_cache_hit_rate', unit: 'pct' },
});

/** V0 and V1 shape 1 (`Speculative metrics:`): rates are fractions. */
export const SPEC_V0_LABELS: LabelTable = lookupTable({
  'Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'fraction' },
  'System efficiency': { column: 'spec_system_efficiency', unit: 'fraction' },
  'Number of speculative tokens': { column: 'num_spec_tokens', unit: 'count' },
  'Number of accepted tokens': { column: 'spec_accepted_tokens', unit: 'count' },
  'Number of draft tokens': { column: 'spec_draft_tokens', unit: 'count' },
  'Number of draft tokens tokens': { column: 'spec_draft_tokens', unit: 'count' },
  'Number of emitted tokens': { column: 'spec_emitted_tokens', unit: 'count' },
  'Number of emitted tokens tokens': { column: 'spec_emitted_tokens', unit: 'count' },
});

/** V1 shapes 2–4 (`SpecDecoding metrics:`): rates are percents. */
export const SPEC_V1_LABELS: LabelTable = lookupTable({
  'Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'pct' },
  'Avg Draft acceptance rate': { column: 'spec_acceptance_rate', unit: 'pct' },
  'Mean acceptance length': { column: 'spec_acceptance_length', unit: 'number' },
  'Accepted throughput': { column: 'spec_accepted_throughput', unit: 'tok/s' },
  'Drafted throughput': { column: 'spec_drafted_throughput', unit: 'tok/s' },
  Accepted: { column: 'spec_accepted_tokens', unit: 'tokens' },
  Drafted: { column: 'spec_draft_tokens', unit: 'tokens' },
  'Per-position acceptance rate': { column: 'spec_per_position_acceptance', unit: 'list' },
});

/**
 * Diffusion language models (`DiffusionDecoding metrics:`, vllm/v1/spec_decode/metrics.py): the
 * speculative-decoding counters under the names of denoising, logged in place of the
 * `SpecDecoding` line. Columns are the keys `vllm bench serve` gives the same quantities in its
 * result JSON (`diffusion_committed_throughput`, …). Both means print `nan` for an interval that
 * committed nothing.
 */
export const DIFFUSION_LABELS: LabelTable = lookupTable({
  'Committed token throughput': { column: 'diffusion_committed_throughput', unit: 'tok/s' },
  'Mean denoising steps per canvas': { column: 'diffusion_steps_per_canvas', unit: 'number' },
  'Mean tokens committed per denoising step': { column: 'diffusion_committed_per_step', unit: 'number' },
  Committed: { column: 'diffusion_committed_tokens', unit: 'tokens' },
  'Denoising steps': { column: 'diffusion_denoising_steps', unit: 'count' },
  'Canvas positions evaluated': { column: 'diffusion_canvas_positions', unit: 'count' },
});

/**
 * KV-connector transfer metrics (`KV Transfer metrics: Key=value, …`, vllm/distributed/kv_transfer/
 * kv_connector/v1/metrics.py `KVConnectorLogging.log`, the keys being what the connector's
 * `KVConnectorStats.reduce()` returns): NIXL (nixl/stats.py), Mooncake and MoRIIO use the same keys,
 * the first NIXL version only `num_successful_transfers`. `MB` there is 2**20 bytes, so MiB. A key
 * no table knows goes to `kv_transfer_<its words>` (the offloading connector's
 * `GPU_to_CPU_total_bytes` → `kv_transfer_gpu_to_cpu_total_bytes`).
 */
export const KV_TRANSFER_KEYS: LabelTable = lookupTable({
  'Num successful transfers': { column: 'kv_transfer_count', unit: 'count' },
  num_successful_transfers: { column: 'kv_transfer_count', unit: 'count' },
  'Avg xfer time (ms)': { column: 'kv_transfer_time_avg_ms', unit: 'number' },
  'P90 xfer time (ms)': { column: 'kv_transfer_time_p90_ms', unit: 'number' },
  'Avg post time (ms)': { column: 'kv_transfer_post_time_avg_ms', unit: 'number' },
  'P90 post time (ms)': { column: 'kv_transfer_post_time_p90_ms', unit: 'number' },
  'Avg MB per transfer': { column: 'kv_transfer_size_avg_mib', unit: 'number' },
  'Throughput (MB/s)': { column: 'kv_transfer_throughput_mib_per_s', unit: 'number' },
  'Avg number of descriptors': { column: 'kv_transfer_descriptors_avg', unit: 'number' },
  'Num failed transfers': { column: 'kv_transfer_failed', unit: 'count' },
  'Num failed recvs': { column: 'kv_transfer_failed_recvs', unit: 'count' },
  'Num KV expired reqs': { column: 'kv_transfer_expired_reqs', unit: 'count' },
  'Num expired reqs': { column: 'kv_transfer_expired_reqs', unit: 'count' },
});

/** The column of a label no table knows: its words in snake case (`MM cache hit rate` → `mm_cache_hit_rate`). */
export function columnOfUnknownLabel(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'unnamed';
}
