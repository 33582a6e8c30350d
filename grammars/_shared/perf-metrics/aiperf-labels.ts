import { lookupTable } from '../../../src/core/cells.js';
import { splitMetricLabel, statName } from './index.js';

/**
 * AIPerf metric names (ai-dynamo/aiperf `metrics/types`, 2025–2026) that the shared GenAI-Perf
 * table (`./index.ts`) reads under another name or not at all, → the name it
 * maps them by. All three GenAI-Perf grammars pass their labels through here.
 */
const RENAMED = lookupTable<string>({
  // tag `goodput`, header `Goodput`: GenAI-Perf's `Request Goodput`
  goodput: 'request goodput',
  // headers of `total_osl` / `total_isl` in the CSV export and console
  'total output sequence length': 'total osl',
  'total input sequence length': 'total isl',
});

/**
 * AIPerf's `Total Output Tokens` (`total_output_tokens`) counts output tokens without reasoning
 * tokens; `total_osl` counts both, as the output token throughput does. Read as the canonical
 * total it under-counted every reasoning model's output: it keeps a name of its own.
 */
const AIPERF_ONLY = lookupTable<string>({
  'total output tokens': 'total output tokens excl reasoning',
});

/** `label` as the shared metric table should read it; `aiperf` when AIPerf wrote the file. */
export function metricLabel(label: string, aiperf: boolean): string {
  const { name, unit } = splitMetricLabel(label);
  const renamed = RENAMED[name] ?? (aiperf ? AIPERF_ONLY[name] : undefined);
  if (renamed === undefined) return label;
  return unit === null ? renamed : `${renamed} (${unit})`;
}

/**
 * A statistic header: the shared ones (`avg` → `mean`, `p50` → `median`) and AIPerf's adjusted
 * percentiles (`adj_p99`: failed requests counted as unbounded latency), kept apart as `adj_p99`.
 */
export function statHeader(header: string): string | null {
  const h = header.trim().toLowerCase();
  return statName(h) ?? (/^adj_p\d+(?:\.\d+)?$/.test(h) ? h : null);
}
