import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../../src/core/records.js';
import type { FieldValue, RelPath } from '../../../src/core/types.js';
import { scaleExact } from '../../../src/parse/values.js';
import { lookupTable } from '../../../src/core/cells.js';

/**
 * Metric names shared by NVIDIA GenAI-Perf and AIPerf (console tables, CSV and JSON exports) →
 * canonical columns. `latency` metrics become `{stat}_{stem}_ms`, `dist` metrics `{stat}_{stem}`
 * (`mean_input_len`), `scalar` metrics use `stem` for their average and `{stat}_{stem}` otherwise.
 */
interface MetricSpec {
  readonly kind: 'latency' | 'dist' | 'scalar';
  readonly stem: string;
}

const METRICS: Readonly<Record<string, MetricSpec>> = lookupTable({
  'time to first token': { kind: 'latency', stem: 'ttft' },
  'time to second token': { kind: 'latency', stem: 'ttst' },
  'time to first output token': { kind: 'latency', stem: 'ttfot' },
  'inter token latency': { kind: 'latency', stem: 'itl' },
  'inter chunk latency': { kind: 'latency', stem: 'icl' },
  'request latency': { kind: 'latency', stem: 'e2el' },
  'output token throughput per user': { kind: 'dist', stem: 'output_throughput_per_user' },
  'output sequence length': { kind: 'dist', stem: 'output_len' },
  'num output token': { kind: 'dist', stem: 'output_len' },
  'input sequence length': { kind: 'dist', stem: 'input_len' },
  'num input token': { kind: 'dist', stem: 'input_len' },
  'output token throughput': { kind: 'scalar', stem: 'output_throughput' },
  'total token throughput': { kind: 'scalar', stem: 'total_token_throughput' },
  'request throughput': { kind: 'scalar', stem: 'request_throughput' },
  'request goodput': { kind: 'scalar', stem: 'request_goodput' },
  'request count': { kind: 'scalar', stem: 'completed' },
  'error request count': { kind: 'scalar', stem: 'failed' },
  'benchmark duration': { kind: 'scalar', stem: 'duration_s' },
  'total isl': { kind: 'scalar', stem: 'total_input_tokens' },
  'total input tokens': { kind: 'scalar', stem: 'total_input_tokens' },
  'total osl': { kind: 'scalar', stem: 'total_output_tokens' },
  'total output tokens': { kind: 'scalar', stem: 'total_output_tokens' },
  'acceptance length': { kind: 'scalar', stem: 'spec_acceptance_length' },
  'average acceptance length': { kind: 'scalar', stem: 'spec_acceptance_length' },
  'acceptance rate': { kind: 'scalar', stem: 'spec_acceptance_rate' },
  'draft acceptance rate': { kind: 'scalar', stem: 'spec_acceptance_rate' },
  'draft token acceptance rate': { kind: 'scalar', stem: 'spec_acceptance_rate' },
});

/** JSON keys of the exports (`time_to_first_token`) share the same table. */
const JSON_ALIASES: Readonly<Record<string, string>> = lookupTable({
  output_sequence_length: 'output sequence length',
  input_sequence_length: 'input sequence length',
  output_token_throughput: 'output token throughput',
});

const LATENCY_SCALE: Readonly<Record<string, number>> = lookupTable({ ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, sec: 1000 });

/** `avg` → `mean`, `p50` → `median`; null for a header that is not a statistic. */
export function statName(header: string): string | null {
  const h = header.trim().toLowerCase();
  if (h === 'avg' || h === 'mean' || h === 'average') return 'mean';
  if (h === 'p50' || h === 'median') return 'median';
  if (h === 'min' || h === 'max' || h === 'std') return h;
  return /^p\d+(?:\.\d+)?$/.test(h) ? h : null;
}

/** `Time To First Token (ms)` → name `time to first token`, unit `ms`. */
export function splitMetricLabel(label: string): { name: string; unit: string | null } {
  const m = /^(.*?)\s*(?:\(([^()]*)\))?\s*$/.exec(label.replace(/\s+/g, ' ').trim());
  const name = (m?.[1] ?? label).toLowerCase().replace(/_/g, ' ').trim();
  const resolved = JSON_ALIASES[name.replace(/ /g, '_')] ?? name;
  return { name: resolved, unit: m?.[2]?.trim().toLowerCase() ?? null };
}

/** Snake-case column stem for a metric name this table does not know. */
export function snakeMetric(name: string): string {
  return name.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '').toLowerCase();
}

/** Where one metric lands, with the factor its values need; `known` is false for unmapped metrics. */
export interface MetricTarget {
  readonly known: boolean;
  column(stat: string): string;
  readonly scale: number;
}

/** Resolves a metric label (with its unit) to its columns; `prefix` names a secondary table. */
export function metricTarget(label: string, prefix = ''): MetricTarget {
  const { name, unit } = splitMetricLabel(label);
  const spec = METRICS[name] ?? METRICS[name.replace(/^(?:average|avg) /, '')];
  if (!spec) {
    const stem = `${prefix}${snakeMetric(name)}`;
    return { known: false, scale: 1, column: (stat) => (stat === 'mean' ? stem : `${stat}_${stem}`) };
  }
  const stem = `${prefix}${spec.stem}`;
  if (spec.kind === 'latency') {
    const scale = LATENCY_SCALE[unit ?? 'ms'] ?? 1;
    return { known: true, scale, column: (stat) => `${stat}_${stem}_ms` };
  }
  const scale = unit === '%' ? 0.01 : 1;
  if (spec.kind === 'dist') return { known: true, scale, column: (stat) => `${stat}_${stem}` };
  return { known: true, scale, column: (stat) => (stat === 'mean' ? stem : `${stat}_${stem}`) };
}

/** One metric row: its label and statistic values (null = `N/A`), all from one source line. */
export interface MetricRow {
  readonly label: string;
  readonly line: number;
  readonly stats: ReadonlyArray<readonly [stat: string, value: number | null]>;
}

/** Sets the columns of one metric row; unknown metrics are kept under a snake-case name. */
export function addMetricRow(builder: FieldMapBuilder, row: MetricRow, prefix: string, unknown: string[]): void {
  const target = metricTarget(row.label, prefix);
  if (!target.known) unknown.push(row.label);
  for (const [stat, value] of row.stats) {
    if (value === null) continue;
    const column = target.column(stat);
    const v = column.endsWith('completed') || column.endsWith('failed') ? Math.round(value) : scaleExact(value, target.scale);
    builder.set(column, v, row.line);
  }
}

/**
 * AIPerf's latency names, in vLLM's terms: its "Inter Token Latency" is a request's decode time over
 * its tokens after the first, `(request latency - TTFT) / (OSL - 1)` (aiperf
 * `metrics/types/inter_token_latency_metric.py`: from request latency, TTFT and output sequence
 * length), one value a request: vLLM's TPOT. Its "Inter Chunk Latency", the time between two
 * streamed responses, one value a response, is vLLM's ITL. GenAI-Perf's "Inter Token Latency" is
 * one value a response (the time since the previous one over the tokens it brought): vLLM's ITL,
 * as the table maps it. For an AIPerf run, `{stat}_itl_ms` becomes `{stat}_tpot_ms` and
 * `{stat}_icl_ms` becomes `{stat}_itl_ms`.
 */
export function withAiperfLatencyNames(builder: FieldMapBuilder): void {
  const fields = builder.fields;
  const lines = builder.lines;
  const renamed: [string, string][] = [];
  for (const column of Object.keys(fields)) {
    const m = /^(.+)_(itl|icl)_ms$/.exec(column);
    if (m) renamed.push([column, `${m[1]}_${m[2] === 'itl' ? 'tpot' : 'itl'}_ms`]);
  }
  const moved = renamed.map(([from, to]) => ({ to, value: fields[from] as FieldValue, line: lines[from] as number }));
  for (const [from] of renamed) {
    delete fields[from];
    delete lines[from];
  }
  for (const { to, value, line } of moved) builder.set(to, value, line);
}

/** One info diagnostic listing the metric names no table maps (kept as snake-case columns). */
export function reportUnknownMetrics(unknown: readonly string[], sink: DiagnosticSink, file: RelPath, line: number): void {
  if (unknown.length === 0) return;
  const names = [...new Set(unknown)].sort();
  sink.report('table/unknown-metric', { file, line, column: 1 }, names.length, names.join(', '));
}
