import type { FieldValue } from '../core/types.js';

type Row = Readonly<Record<string, FieldValue | undefined>>;

/**
 * The metrics a report leads with, in order of preference: a serving benchmark's output
 * throughput, then what offline benchmarks measure instead (a static batch's latency: `vllm bench
 * latency`; SGLang's one-batch total latency), so a folder of those gets speedups too.
 */
const HEADLINE_METRICS = ['output_throughput', 'total_token_throughput', 'mean_batch_latency_ms', 'total_latency_ms'] as const;

/**
 * Metrics compared beyond compare's defaults when the runs have them: what offline benchmarks
 * measure instead of throughput, and the energy per output token some tools measure.
 */
const MEASURED_METRICS: readonly string[] = ['mean_batch_latency_ms', 'total_latency_ms', 'energy_per_output_token_j'];

/** The first headline metric some run has a number for; `output_throughput` when none has. */
export function headlineMetric(rows: readonly Row[]): string {
  for (const m of HEADLINE_METRICS) if (rows.some((r) => typeof r[m] === 'number' && Number.isFinite(r[m]))) return m;
  return HEADLINE_METRICS[0];
}

/** The metrics of MEASURED_METRICS some run has a number for. */
export function presentMeasuredMetrics(rows: readonly Row[]): string[] {
  return MEASURED_METRICS.filter((m) => rows.some((r) => typeof r[m] === 'number' && Number.isFinite(r[m])));
}
