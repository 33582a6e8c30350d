/**
 * Every label SGLang's `bench_serving` (and its forks) prints inside the result block, keyed by
 * `labelKey()`, mapped to its canonical column. Latency statistics (`Mean E2E Latency (ms)`,
 * `P95 ITL (ms)`, `Max ITL (ms)`, …) are matched by pattern in `latencyColumn()`.
 */
import type { LabelSpec, ValueKind } from '../_shared/serving-block/fields.js';
import { lookupTable } from '../../src/core/cells.js';

const c = (column: string, kind: ValueKind = 'number'): LabelSpec => ({ column, kind });

export const SGLANG_BLOCK_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'traffic request rate': c('request_rate'),
  'max request concurrency': c('max_concurrency', 'count'),
  // v0.4.0 – v0.4.3 spelling
  'max reqeuest concurrency': c('max_concurrency', 'count'),
  'successful requests': c('completed', 'count'),
  'benchmark duration (s)': c('duration_s'),
  'elapsed time (s)': c('elapsed_time_s'),
  'total input tokens': c('total_input_tokens', 'count'),
  'total input text tokens': c('total_input_text_tokens', 'count'),
  'total input vision tokens': c('total_input_vision_tokens', 'count'),
  'total generated tokens': c('total_output_tokens', 'count'),
  'total generated tokens (retokenized)': c('total_output_tokens_retokenized', 'count'),
  'request throughput (req/s)': c('request_throughput'),
  'input token throughput (tok/s)': c('input_throughput'),
  'output token throughput (tok/s)': c('output_throughput'),
  'peak output token throughput (tok/s)': c('peak_output_throughput'),
  'peak concurrent requests': c('peak_concurrent_requests', 'count'),
  'total token throughput (tok/s)': c('total_token_throughput'),
  // 2024 builds
  'total throughput (tok/s)': c('total_token_throughput'),
  concurrency: c('concurrency'),
  'accept length': c('spec_acceptance_length'),
});

/** Labels whose value is text, not a number. */
export const SGLANG_TEXT_LABELS: Readonly<Record<string, string>> = lookupTable({
  backend: 'backend',
  'benchmark mode': 'benchmark_mode',
});

/** Preamble lines printed before the block: dataset statistics. The block's values win. */
export const SGLANG_PREAMBLE_LABELS: Readonly<Record<string, string>> = lookupTable({
  '#input tokens': 'total_input_tokens',
  '#output tokens': 'total_output_tokens',
});
