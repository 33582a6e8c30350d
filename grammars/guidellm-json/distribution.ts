import type { FieldMapBuilder } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import type { JsonValue } from '../_shared/json/index.js';
import { lookupTable } from '../../src/core/cells.js';

type JsonObject = { [key: string]: JsonValue };

/** A plain JSON object, or null. */
export function asObject(value: JsonValue | undefined): JsonObject | null {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

/** GuideLLM percentile keys: `p001` = 0.1th, `p01` = 1st, `p05` = 5th, `p999` = 99.9th. */
export function percentileName(key: string): string | null {
  const m = /^p(\d{2,3})$/.exec(key);
  if (!m?.[1]) return null;
  const d = m[1];
  const n = d.length === 3 ? Number(`${d.slice(0, 2)}.${d.slice(2)}`) : Number(d);
  return n === 50 ? null : `p${n}`;
}

const STATS: Readonly<Record<string, string>> = lookupTable({ mean: 'mean', median: 'median', std_dev: 'std', min: 'min', max: 'max' });

/**
 * Statistics of one distribution summary (`{mean, median, std_dev, min, max, percentiles: {…}}`)
 * as `[stat, value]` pairs; `p50` is left out (it is the median).
 */
export function summaryStats(summary: JsonObject): Array<readonly [string, number]> {
  const out: Array<readonly [string, number]> = [];
  for (const [key, stat] of Object.entries(STATS)) {
    const v = summary[key];
    if (typeof v === 'number') out.push([stat, v]);
  }
  const percentiles = asObject(summary.percentiles);
  for (const [key, v] of Object.entries(percentiles ?? {})) {
    const stat = percentileName(key);
    if (stat && typeof v === 'number') out.push([stat, v]);
  }
  return out;
}

/** Where one GuideLLM metric lands: `{stat}` is replaced by the statistic name. */
export interface MetricSpec {
  readonly pattern: string;
  /** Only the mean is kept (throughputs): the column is `pattern` itself. */
  readonly meanOnly?: boolean;
  readonly scale?: number;
}

/** Adds the `successful` distribution of one metric to the builder. */
export function addSummary(builder: FieldMapBuilder, metric: JsonValue | undefined, spec: MetricSpec, line: number): void {
  const successful = asObject(asObject(metric ?? null)?.successful);
  if (!successful) return;
  for (const [stat, value] of summaryStats(successful)) {
    if (spec.meanOnly && stat !== 'mean') continue;
    const column = spec.meanOnly ? spec.pattern : spec.pattern.replace('{stat}', stat);
    builder.set(column, scaleExact(value, spec.scale ?? 1), line);
  }
}

/** GuideLLM metrics → columns; `request_latency` and `request_dispatch_delay` are in SECONDS. */
export const METRICS: Readonly<Record<string, MetricSpec>> = lookupTable({
  requests_per_second: { pattern: 'request_throughput', meanOnly: true },
  // 0.4+; the second, schema version 2 with latency objectives (`metrics.slo`)
  prompt_tokens_per_second: { pattern: 'input_throughput', meanOnly: true },
  request_goodput: { pattern: 'request_goodput', meanOnly: true },
  output_tokens_per_second: { pattern: 'output_throughput', meanOnly: true },
  tokens_per_second: { pattern: 'total_token_throughput', meanOnly: true },
  time_to_first_token_ms: { pattern: '{stat}_ttft_ms' },
  time_to_first_output_token_ms: { pattern: '{stat}_ttfot_ms' },
  time_per_output_token_ms: { pattern: '{stat}_tpot_ms' },
  inter_token_latency_ms: { pattern: '{stat}_itl_ms' },
  request_latency: { pattern: '{stat}_e2el_ms', scale: 1000 },
  // 2026, seconds: how late each request started after its scheduled time (rate strategies only)
  request_dispatch_delay: { pattern: '{stat}_schedule_delay_ms', scale: 1000 },
  prompt_token_count: { pattern: '{stat}_input_len' },
  output_token_count: { pattern: '{stat}_output_len' },
  request_concurrency: { pattern: '{stat}_request_concurrency' },
});
