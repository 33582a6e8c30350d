/**
 * Column names of the start-up benchmark's statistics, in seconds as the benchmark measures them:
 * `avg_cold_startup_time_s`, `p99_warm_compilation_time_s`, `avg_cold_encoder_compilation_time_s`.
 */
export type Phase = 'cold' | 'warm';

/** `avg_<phase>_<metric>_time_s`. */
export function avgColumn(phase: Phase, metric: string): string {
  return `avg_${phase}_${metric}_time_s`;
}

/** `p<N>_<phase>_<metric>_time_s` (N as printed: `10`, `99`). */
export function percentileColumn(percentage: string, phase: Phase, metric: string): string {
  return `p${percentage}_${phase}_${metric}_time_s`;
}

/**
 * The metric a printed name stands for: `total startup` (2025) and `startup` are `startup`,
 * `Encoder compilation` is `encoder_compilation` (the JSON keys' spelling).
 */
export function metricOf(printed: string): string {
  return printed.trim().toLowerCase().replace(/^total /, '').replace(/\s+/g, '_');
}

/** The columns a complete result has: its last lines, the warm phase's 99th percentiles. */
export const LAST_COLUMNS = [percentileColumn('99', 'warm', 'startup'), percentileColumn('99', 'warm', 'compilation')] as const;

export const CLIENT = 'vllm-bench-startup';
