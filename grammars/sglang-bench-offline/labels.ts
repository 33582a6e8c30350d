import { lookupTable } from '../../src/core/cells.js';
/** `Offline Throughput Benchmark Result` block labels (formats.md §5.3), keyed by `labelKey()`. */
export const OFFLINE_LABELS: Readonly<Record<string, { column: string; scale?: number }>> = lookupTable({
  'successful requests': { column: 'completed' },
  'benchmark duration (s)': { column: 'duration_s' },
  'total input tokens': { column: 'total_input_tokens' },
  'total generated tokens': { column: 'total_output_tokens' },
  'average e2e latency (s)': { column: 'mean_e2el_ms', scale: 1000 },
  'last generation throughput (tok/s)': { column: 'last_gen_throughput' },
  'request throughput (req/s)': { column: 'request_throughput' },
  'input token throughput (tok/s)': { column: 'input_throughput' },
  'output token throughput (tok/s)': { column: 'output_throughput' },
  'total token throughput (tok/s)': { column: 'total_token_throughput' },
});

/** The JSON line `--result-filename` appends, and the Nov-2024 dict repr line. */
export const OFFLINE_KEYS: Readonly<Record<string, { column: string; scale?: number }>> = lookupTable({
  backend: { column: 'backend' },
  run_name: { column: 'run_name' },
  successful_requests: { column: 'completed' },
  total_latency: { column: 'duration_s' },
  total_input_tokens: { column: 'total_input_tokens' },
  total_output_tokens: { column: 'total_output_tokens' },
  last_gen_throughput: { column: 'last_gen_throughput' },
  request_throughput: { column: 'request_throughput' },
  input_throughput: { column: 'input_throughput' },
  output_throughput: { column: 'output_throughput' },
  total_throughput: { column: 'total_token_throughput' },
  // Nov 2024: `throughput` is (input + output tokens) / latency
  throughput: { column: 'total_token_throughput' },
});
