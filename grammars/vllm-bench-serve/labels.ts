/**
 * Every label vLLM's serving benchmark (and its forks) has printed inside the result block, keyed by
 * `labelKey()` (lower case, hyphens folded), mapped to its canonical column. Latency statistics
 * (`Mean TTFT (ms)`, `P99.9 ITL (ms)`, …) are matched by pattern in `latencyColumn()`.
 */
import type { LabelSpec, ValueKind } from '../_shared/serving-block/fields.js';
import { lookupTable } from '../../src/core/cells.js';

const c = (column: string, kind: ValueKind = 'number'): LabelSpec => ({ column, kind });

export const VLLM_BLOCK_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'successful requests': c('completed', 'count'),
  'failed requests': c('failed', 'count'),
  'maximum request concurrency': c('max_concurrency', 'count'),
  'request rate configured (rps)': c('request_rate'),
  'benchmark duration (s)': c('duration_s'),
  'total input tokens': c('total_input_tokens', 'count'),
  'total generated tokens': c('total_output_tokens', 'count'),
  'request throughput (req/s)': c('request_throughput'),
  'input throughput (inputs/s)': c('input_sequence_throughput'),
  'request goodput (req/s)': c('request_goodput'),
  'input token throughput (tok/s)': c('input_throughput'),
  'output token throughput (tok/s)': c('output_throughput'),
  'peak output token throughput (tok/s)': c('peak_output_throughput'),
  'peak concurrent requests': c('peak_concurrent_requests'),
  'rtfx (inverse real time factor)': c('rtfx'),
  'total token throughput (tok/s)': c('total_token_throughput'),
  'user throughput (tok/s)': c('user_throughput'),
  // Speculative Decoding section (2026); the console prints percents, the schema stores fractions.
  'acceptance rate (%)': c('spec_acceptance_rate', 'percent'),
  'acceptance length': c('spec_acceptance_length'),
  drafts: c('spec_num_drafts', 'count'),
  'draft tokens': c('spec_draft_tokens', 'count'),
  'accepted tokens': c('spec_accepted_tokens', 'count'),
  // Probe Requests section
  'probe requests completed': c('probe_completed', 'count'),
  'probe requests failed': c('probe_failed', 'count'),
  // Diffusion Decoding section (dLLM servers): the columns named as the result JSON's keys for the same values
  'committed throughput (tok/s)': c('diffusion_committed_throughput'),
  'denoising steps per canvas': c('diffusion_steps_per_canvas'),
  'committed per denoising step': c('diffusion_committed_per_step'),
  'committed tokens': c('diffusion_committed_tokens', 'count'),
  'denoising steps': c('diffusion_denoising_steps', 'count'),
  'canvas positions evaluated': c('diffusion_canvas_positions', 'count'),
  // A personal fork's Accuracy section
  'accuracy rate (%)': c('accuracy_rate', 'percent'),
});

/** Preamble lines printed before the block (their values fill columns the block leaves out). */
export const VLLM_PREAMBLE_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'traffic request rate': c('request_rate'),
  'burstiness factor': c('burstiness'),
  'maximum request concurrency': c('max_concurrency', 'count'),
});

/** The 2023 script printed loose lines instead of a block; values in seconds. */
export const LEGACY_LABELS: Readonly<Record<string, { column: string; scale: number }>> = lookupTable({
  'total time': { column: 'duration_s', scale: 1 },
  throughput: { column: 'request_throughput', scale: 1 },
  'average latency': { column: 'mean_e2el_ms', scale: 1000 },
  'average latency per token': { column: 'mean_latency_per_token_ms', scale: 1000 },
  'average latency per output token': { column: 'mean_latency_per_output_token_ms', scale: 1000 },
});
