import type { ConfigRecord } from '../../src/core/records.js';
import { FieldMapBuilder } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * `profile_export_aiperf_energy_efficiency.json` (ai-dynamo/aiperf `analysis/energy_analyzer.py`,
 * `EnergyEfficiencySummary.to_json`, 2026): `source` (the GPU telemetry's totals) and `metrics`
 * (derived from them and the run's own counts). Each key → its column and the factor to its unit.
 * `source.total_gpu_energy_j` is summed over every GPU the telemetry saw (the DCGM energy counter's
 * delta, MJ → J, or the summed mean power × the profiling duration); `source.average_gpu_power_w`
 * is that total over the duration (or the summed mean power): both over all GPUs, not per GPU.
 */
const SOURCE: Readonly<Record<string, readonly [string, number]>> = Object.freeze({
  total_gpu_energy_j: ['gpu_energy_j', 1],
  average_gpu_power_w: ['gpu_power_w', 1],
  gpu_count: ['gpu_count', 1],
});
const METRICS: Readonly<Record<string, readonly [string, number]>> = Object.freeze({
  // mJ per token → J per token
  energy_per_output_token_mj: ['energy_per_output_token_j', 0.001],
  energy_per_total_token_mj: ['energy_per_token_j', 0.001],
  energy_per_request_j: ['energy_per_request_j', 1],
  // output tok/s per W = output tokens per joule
  output_tps_per_watt: ['output_tokens_per_joule', 1],
  // req/s per W and good req/s per W: no shared column, their own names
  performance_per_watt: ['performance_per_watt', 1],
  goodput_per_watt: ['goodput_per_watt', 1],
});

/** Whether `obj` is an energy-efficiency export: `source.total_gpu_energy_j` a number. */
export function isEnergyExport(obj: JsonObject): obj is JsonObject & { source: JsonObject } {
  return isJsonObject(obj.source) && typeof obj.source.total_gpu_energy_j === 'number';
}

/**
 * The export as a `bench-metrics` record for the one run of `client` in its folder (as
 * server-metrics.ts's): the shared energy columns, `energy_source` (`dcgm_counter` /
 * `power_integration`) and `gpu_count` (GPUs the telemetry summed: not the run's `num_gpus`, it may
 * count idle ones). Null when it holds no positive energy. `results` (the same values again as
 * metric results) is not read.
 */
export function energyRecord(obj: JsonObject, at: SourcePos, client: string): ConfigRecord | null {
  if (!isEnergyExport(obj)) return null;
  const builder = new FieldMapBuilder();
  const source = obj.source;
  const sourceLines = keyLines.get(source) ?? {};
  addScaled(builder, source, SOURCE, sourceLines, at.line);
  if (!builder.has('gpu_energy_j')) return null;
  if (typeof source.energy_source === 'string' && source.energy_source !== '') builder.set('energy_source', source.energy_source, sourceLines.energy_source ?? at.line);
  if (isJsonObject(obj.metrics)) addScaled(builder, obj.metrics, METRICS, keyLines.get(obj.metrics) ?? {}, at.line);
  builder.set('client', client, at.line);
  return { kind: 'config', at, origin: 'bench-metrics', fields: builder.fields, lines: builder.lines };
}

function addScaled(builder: FieldMapBuilder, obj: JsonObject, table: Readonly<Record<string, readonly [string, number]>>, lines: Readonly<Record<string, number>>, fallback: number): void {
  for (const [key, [column, factor]] of Object.entries(table)) {
    const v: JsonValue | undefined = obj[key];
    // AIPerf writes 0 for a total it could not measure (no telemetry): no value
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) continue;
    builder.set(column, scaleExact(v, factor), lines[key] ?? fallback);
  }
}
