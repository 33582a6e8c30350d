import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder } from '../../src/core/records.js';
import { isJsonObject, type JsonDocument, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { addCommandFlags, commandTool, shellWords } from '../_shared/perf-metrics/cli-command.js';
import { addMetricRow, reportUnknownMetrics, withAiperfLatencyNames } from '../_shared/perf-metrics/index.js';
import { isAggregate, reportAggregate } from './aggregate.js';
import { COMPANION_SIGNATURE, companionExport, isServerMetricsExport } from './companion-exports.js';
import { energyRecord } from './energy.js';
import { aiperfPartialExport } from '../_shared/perf-metrics/aiperf-folders.js';
import { metricLabel, statHeader } from '../_shared/perf-metrics/aiperf-labels.js';
import { addInputConfig } from './input-config.js';
import { serverMetricsRecord } from './server-metrics.js';
import { addAiperfSpecDecodeRow } from './spec-decode.js';
import { addGpuPowerRows, type GpuPowerRow, gpuPowerMetric } from './gpu-power.js';

/** A metric key followed by a statistics object (per-request JSONL carries `{"value": …}` instead). */
const SIGNATURE = /"(?:time_to_first_token|request_latency|request_throughput|output_token_throughput|inter_token_latency)"\s*:\s*\{[^{}]*"(?:avg|p\d+|min|max|std)"\s*:\s*[\d-]/;
/** AIPerf's multi-run aggregate (`--num-profile-runs`): flattened metric keys with confidence statistics. */
const AGGREGATE_SIGNATURE = /"aggregation_type"\s*:|"ci_low"\s*:/;
/** AIPerf's default export name (`profile_export_aiperf.json`, a time slice's `profile_export_aiperf_3.json`). */
const AIPERF_FILE = /(?:^|\/)profile_export_aiperf[^/]*$/;
/** What every inference-perf report has (its own grammar reads them). */
const INFERENCE_PERF_SIGNATURE = /"load_summary"\s*:\s*\{/;
/** An llm-d-benchmark Benchmark Report: its schema version beside its own sections. */
const LLMD_REPORT_VERSION = /"version"\s*:\s*"0\.[12](?:\.\d+)?"/;
const LLMD_REPORT_SECTION = /"(?:request_performance|scenario)"\s*:/;
/** Keys only AIPerf writes. */
const AIPERF_KEYS = ['aiperf_version', 'schema_version', 'was_cancelled', 'error_summary', 'telemetry_data', 'benchmark_id', 'run_info'];
/** Top-level keys that are bookkeeping, not metrics. */
const SKIPPED = new Set(['input_config', 'telemetry_data', 'error_summary', 'start_time', 'end_time', 'was_cancelled', 'schema_version', 'aiperf_version', 'benchmark_id', 'run_info', 'warmup_metrics', 'branch_stats', 'runtime_submission_invalid_reasons']);

/** `profile_export_genai_perf.json` (GenAI-Perf) and `profile_export_aiperf.json` (AIPerf). */
export const grammar: Grammar = {
  id: 'genai-perf-json',
  title: 'GenAI-Perf / AIPerf JSON export',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    // kubernetes-sigs/inference-perf reports (inference-perf-json) hold request_latency statistics under successes.latency
    if (INFERENCE_PERF_SIGNATURE.test(head)) return NOT_MINE;
    // llm-d-benchmark Benchmark Reports in JSON (llmd-benchmark-report): unit-tagged statistics objects too
    if (LLMD_REPORT_VERSION.test(head) && LLMD_REPORT_SECTION.test(head)) return NOT_MINE;
    if (SIGNATURE.test(head)) return { score: 0.85, reason: 'metric keys with unit/avg/pNN statistics objects' };
    if (AGGREGATE_SIGNATURE.test(head) && /"aiperf_version"\s*:/.test(head)) return { score: 0.85, reason: 'AIPerf multi-run aggregate (confidence statistics)' };
    if (COMPANION_SIGNATURE.test(head)) return { score: 0.8, reason: 'AIPerf export beside the run (time slices, steady state, energy, server metrics, sweep)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseJsonDocuments(source, sink).flatMap((doc) => toRun(doc, source, sink));
  },
};

function toRun(doc: JsonDocument, source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  const at = { file: source.path, line: doc.line, column: 1 };
  const obj = doc.value;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [];
  if (isAggregate(obj)) {
    reportAggregate(obj, sink, at);
    return [];
  }
  // a server metrics export with speculative-decoding counters: the run's acceptance, for the AIPerf run beside it
  const spec = isServerMetricsExport(obj) ? serverMetricsRecord(obj, at, 'aiperf') : null;
  if (spec !== null) return [spec];
  // the energy-efficiency export: the run's GPU energy and power, for the AIPerf run beside it (energy.ts)
  const energy = energyRecord(obj, at, 'aiperf');
  if (energy !== null) return [energy];
  const companion = companionExport(obj);
  if (companion !== null) {
    sink.report('table/ignored-block', at, companion);
    return [];
  }
  const lines = keyLines.get(obj) ?? {};
  const builder = new FieldMapBuilder();
  const unknown: string[] = [];
  const aiperf = AIPERF_KEYS.some((k) => Object.hasOwn(obj, k));
  // AIPerf 0.1–0.2 nested its metrics under `records`, each with its tag, header and count.
  const holder = isJsonObject(obj.records) ? obj.records : obj;
  const holderLines = keyLines.get(holder) ?? lines;
  let metrics = 0;
  // AIPerf's own GPU power metrics (gpu-power.ts): set once every metric is seen
  const power: GpuPowerRow[] = [];
  for (const [key, value] of Object.entries(holder)) {
    if (SKIPPED.has(key) || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const stats: Array<readonly [string, number | null]> = [];
    for (const [k, v] of Object.entries(value)) {
      const stat = statHeader(k);
      if (stat && (typeof v === 'number' || v === null)) stats.push([stat, v]);
    }
    if (stats.length === 0) continue;
    metrics++;
    const unit = typeof value.unit === 'string' && value.unit !== '' ? ` (${value.unit})` : '';
    // the old `records` entries are keyed by tag (`ttft`); their header names the metric
    const name = typeof value.header === 'string' && value.header !== '' ? value.header : key;
    const line = holderLines[key] ?? doc.line;
    if (addAiperfSpecDecodeRow(builder, `${name}${unit}`, stats, line)) continue;
    const gpu = gpuPowerMetric(key);
    const avg = stats.find(([s]) => s === 'mean')?.[1];
    if (gpu !== null) {
      if (typeof avg === 'number') power.push({ ...gpu, unit: typeof value.unit === 'string' ? value.unit : null, value: avg, line });
      continue;
    }
    addMetricRow(builder, { label: metricLabel(`${name}${unit}`, aiperf), line, stats }, '', unknown);
  }
  addGpuPowerRows(builder, power, reasoningTokens(holder), unknown);
  if (metrics === 0) {
    sink.report('json/not-a-result', at, Object.keys(obj).slice(0, 6).join(', '));
    return [];
  }
  const partial = aiperf || AIPERF_FILE.test(source.path) ? aiperfPartialExport(source.path) : null;
  if (partial !== null) {
    // a run's metrics again, for one time slice or phase: the folder's own export is the run
    sink.report('table/ignored-block', at, partial);
    return [];
  }
  const config = obj.input_config;
  let command = config === undefined ? null : addInputConfig(builder, config, lines.input_config ?? doc.line);
  // AIPerf 2026 (schema 1.3+) keeps the redacted command in `run_info`, not in its config v2
  const runCommand = isJsonObject(obj.run_info) ? obj.run_info.cli_command : undefined;
  if (command === null && typeof runCommand === 'string' && runCommand.trim() !== '') {
    command = runCommand;
    addCommandFlags(builder, shellWords(runCommand), lines.run_info ?? doc.line);
  }
  const version = obj.aiperf_version;
  if (typeof version === 'string') builder.set('client_version', version, lines.aiperf_version ?? doc.line);
  const client = clientOf(obj, command);
  builder.set('client', client, doc.line);
  if (client === 'aiperf') withAiperfLatencyNames(builder);
  reportUnknownMetrics(unknown, sink, source.path, doc.line);
  return [{ kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines }];
}

/** Whether the run counted reasoning tokens (AIPerf's `total_reasoning_tokens`, above 0). */
function reasoningTokens(holder: { [key: string]: JsonValue }): boolean {
  const total = holder.total_reasoning_tokens;
  return isJsonObject(total) && typeof total.avg === 'number' && total.avg > 0;
}

function clientOf(obj: { [key: string]: JsonValue }, command: string | null): 'aiperf' | 'genai-perf' {
  const tool = command === null ? null : commandTool(shellWords(command));
  if (tool) return tool;
  return AIPERF_KEYS.some((k) => Object.hasOwn(obj, k)) ? 'aiperf' : 'genai-perf';
}
