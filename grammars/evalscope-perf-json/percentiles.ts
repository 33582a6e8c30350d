import type { ConfigRecord } from '../../src/core/records.js';
import { FieldMapBuilder } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * `benchmark_percentile.json`'s metrics (`PercentileResult` in evalscope/perf/utils/perf_models.py;
 * 2024: `First Chunk Latency (s)`) → column stems, with the factor to their unit. The per-request
 * throughputs and token counts other than lengths are not the schema's: left out.
 */
const METRICS: Readonly<Record<string, readonly [stem: string, factor: number]>> = {
  'TTFT (s)': ['ttft_ms', 1000],
  'TTFT (ms)': ['ttft_ms', 1],
  'First Chunk Latency (s)': ['ttft_ms', 1000],
  'ITL (s)': ['itl_ms', 1000],
  'ITL (ms)': ['itl_ms', 1],
  'TPOT (s)': ['tpot_ms', 1000],
  'TPOT (ms)': ['tpot_ms', 1],
  'Latency (s)': ['e2el_ms', 1000],
  'Input tokens': ['input_len', 1],
  'Output tokens': ['output_len', 1],
};

/** A percentile label (`50%`, `99%`, `min`, `max`) → the statistic of its columns; null for others. */
function statOf(label: JsonValue | undefined): string | null {
  if (label === 'min' || label === 'max') return label;
  const m = typeof label === 'string' ? /^(\d+(?:\.\d+)?)%$/.exec(label.trim()) : null;
  if (!m?.[1]) return null;
  const p = Number(m[1]);
  return p === 50 ? 'median' : `p${p}`;
}

/**
 * The percentile table (rows `{Percentiles: '50%', 'TTFT (s)': …}`, or columns `{Percentiles:
 * ['10%', …], 'TTFT (s)': […]}`) as a `bench-metrics` record: `p99_ttft_ms`, `median_e2el_ms`, …,
 * every value at its row's line, for the one evalscope run of its folder (build-runs.ts fills that
 * run's empty cells). Null when it holds no value this maps.
 */
export function percentileRecord(value: JsonValue, at: SourcePos, client: string): ConfigRecord | null {
  const builder = new FieldMapBuilder();
  const add = (label: JsonValue | undefined, metric: string, v: JsonValue | undefined, line: number): void => {
    const stat = statOf(label);
    const spec = METRICS[metric];
    if (stat === null || !spec || typeof v !== 'number' || !Number.isFinite(v)) return;
    builder.set(`${stat}_${spec[0]}`, scaleExact(v, spec[1]), line);
  };
  if (Array.isArray(value)) {
    for (const row of value.filter(isJsonObject)) {
      const lines = keyLines.get(row) ?? {};
      const label = row.Percentiles ?? row.Percentile;
      for (const [metric, v] of Object.entries(row)) add(label, metric, v, lines[metric] ?? at.line);
    }
  } else if (isJsonObject(value)) {
    addColumns(value, at, add);
  }
  if (builder.size === 0) return null;
  builder.set('client', client, at.line);
  return { kind: 'config', at, origin: 'bench-metrics', fields: builder.fields, lines: builder.lines };
}

/** The transposed table: a list of labels and a list of values per metric, each at its key's line. */
function addColumns(table: JsonObject, at: SourcePos, add: (label: JsonValue | undefined, metric: string, v: JsonValue | undefined, line: number) => void): void {
  const lines = keyLines.get(table) ?? {};
  const labels = table.Percentiles ?? table.Percentile;
  if (!Array.isArray(labels)) return;
  for (const [metric, column] of Object.entries(table)) {
    if (!Array.isArray(column)) continue;
    column.forEach((v, i) => add(labels[i], metric, v, lines[metric] ?? at.line));
  }
}
