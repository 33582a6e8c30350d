import { counted } from '../../src/core/counted.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../_shared/json/index.js';

/**
 * JSON files AIPerf writes beside `profile_export_aiperf.json` that hold metrics of the same run
 * (or of the runs of a sweep), not a run of their own (ai-dynamo/aiperf `src/aiperf/exporters/`,
 * `server_metrics/json_exporter.py`, `exporters/aggregate/`, 2025–2026). Their heads, for detection
 * (the energy export's `source` object opens with `total_gpu_energy_j`: InferenceX's processed
 * results have a top-level key of that name, and are not AIPerf's).
 */
export const COMPANION_SIGNATURE = /"timeslices"\s*:\s*\[|"window_metadata"\s*:\s*\{|"source"\s*:\s*\{\s*"total_gpu_energy_j"\s*:|"endpoints_configured"\s*:|"per_combination_metrics"\s*:|"aggregation_type"\s*:\s*"sweep"/;

/** What a companion export is, for its `table/ignored-block` info; null for any other object. */
export function companionExport(obj: JsonObject): string | null {
  return timeSlices(obj) ?? steadyState(obj) ?? energy(obj) ?? serverMetrics(obj) ?? sweep(obj);
}

/** `profile_export_aiperf_timeslices.json` (`--slice-duration`): `{"timeslices": [{start_ns, end_ns, <metric>: {…}}, …]}`. */
function timeSlices(obj: JsonObject): string | null {
  if (!Array.isArray(obj.timeslices)) return null;
  return `AIPerf time-slice export (${counted(obj.timeslices.length, 'slice')} of the run in profile_export_aiperf.json)`;
}

/**
 * `profile_export_aiperf_steady_state.json`: the run's metrics again over its steady-state window
 * (ramp-up and ramp-down left out), under `metrics`, with `window_metadata`. Not a repeat: the same
 * requests, fewer of them; a run read from it would count the run twice.
 */
function steadyState(obj: JsonObject): string | null {
  const meta = obj.window_metadata;
  if (!isJsonObject(meta) || !isJsonObject(obj.metrics)) return null;
  const kept = numberOf(meta.steady_state_requests);
  const total = numberOf(meta.total_requests);
  const share = kept !== null && total !== null ? `, ${kept} of its ${total} requests` : '';
  return `AIPerf steady-state window export (the run in profile_export_aiperf.json over its steady-state window${share})`;
}

/** `profile_export_aiperf_energy_efficiency.json`: `source.total_gpu_energy_j` and energy per token/request of the run. */
function energy(obj: JsonObject): string | null {
  if (!isJsonObject(obj.source) || numberOf(obj.source.total_gpu_energy_j) === null) return null;
  return 'AIPerf energy-efficiency export (GPU energy per token and per request of the run in profile_export_aiperf.json)';
}

/** `server_metrics_export.json`: Prometheus summaries of the serving endpoints (`metrics.<name>.series[].stats`). */
function serverMetrics(obj: JsonObject): string | null {
  if (!isServerMetricsExport(obj)) return null;
  return `AIPerf server metrics export (${counted(Object.keys(obj.metrics).length, 'Prometheus metric')} of the serving endpoints during the run)`;
}

/** Whether `obj` is a server metrics export (its spec-decode counters join the run: server-metrics.ts). */
export function isServerMetricsExport(obj: JsonObject): obj is JsonObject & { metrics: JsonObject } {
  return isJsonObject(obj.summary) && Array.isArray(obj.summary.endpoints_configured) && isJsonObject(obj.metrics);
}

/**
 * `profile_export_aiperf_sweep.json`: per parameter combination, mean/std/min/max/cv over its
 * trials. Each trial's own export (under `profile_runs/`) is a run of the table.
 */
function sweep(obj: JsonObject): string | null {
  if (obj.aggregation_type !== 'sweep' && !Array.isArray(obj.per_combination_metrics)) return null;
  const runs = numberOf(obj.num_profile_runs);
  const combinations = Array.isArray(obj.per_combination_metrics) ? ` over ${counted(obj.per_combination_metrics.length, 'combination')}` : '';
  const of = runs === null ? '' : ` of ${counted(runs, 'profile run')}`;
  return `AIPerf sweep aggregate${of}${combinations} (each run's profile_export_aiperf.json under profile_runs/ is read as a run)`;
}

function numberOf(v: JsonValue | undefined): number | null {
  return typeof v === 'number' ? v : null;
}
