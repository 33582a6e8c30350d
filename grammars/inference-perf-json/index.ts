import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { isJsonObject, type JsonDocument, type JsonObject, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { addStageFields } from './fields.js';

/** Every inference-perf lifecycle or Prometheus report opens with (or holds near its top) a `load_summary` object. */
const LOAD_SUMMARY = /"load_summary"\s*:\s*\{/;
/** …beside which only inference-perf writes these keys. */
const INFERENCE_PERF_KEYS = /"(?:successes|schedule_delay|schedule_accuracy|requested_rate|benchmark_time_seconds)"\s*:/;

/**
 * File names, matched at the end of the base name: `storage.*.report_file_prefix` may put any
 * prefix before them. `stage_3_lifecycle_metrics.json`: the stage index is in the name only.
 */
const STAGE_FILE = /stage_(\d+)_lifecycle_metrics\.json$/;
/** `adapter_<name>_stage_<N>_lifecycle_metrics.json` (`per_adapter_stage`): one LoRA adapter's requests of stage N. */
const ADAPTER_STAGE_FILE = /adapter_(.+)_stage_(\d+)_lifecycle_metrics\.json$/;
/** `adapter_<name>_lifecycle_metrics.json` (`per_adapter`): one LoRA adapter's requests of every stage. */
const ADAPTER_FILE = /adapter_(.+)_lifecycle_metrics\.json$/;
/** `stage_<N>_prometheus_metrics.json` (`report.prometheus.per_stage`). */
const PROMETHEUS_STAGE_FILE = /stage_(\d+)_prometheus_metrics\.json$/;

/**
 * kubernetes-sigs/inference-perf lifecycle reports (README.md): one run per
 * `stage_<N>_lifecycle_metrics.json`; the run summary, per-adapter and Prometheus reports of the
 * same folder are claimed and said, not counted.
 */
export const grammar: Grammar = {
  id: 'inference-perf-json',
  title: 'inference-perf lifecycle metrics report',
  detect({ head }) {
    if (!looksLikeJson(head) || !LOAD_SUMMARY.test(head) || !INFERENCE_PERF_KEYS.test(head)) return NOT_MINE;
    return { score: 0.9, reason: 'inference-perf report: load_summary with successes/failures' };
  },
  parse(source, sink) {
    return parseJsonDocuments(source, sink).flatMap((doc) => toRun(doc, source, sink));
  },
};

function toRun(doc: JsonDocument, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at = { file: source.path, line: doc.line, column: 1 };
  const obj = doc.value;
  if (!isJsonObject(obj) || !isJsonObject(obj.load_summary) || !isJsonObject(obj.successes)) {
    sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
    return [];
  }
  const notARun = companionReport(obj.load_summary, obj.successes, baseName(source.path));
  if (notARun !== null) {
    sink.report('table/ignored-block', at, notARun);
    return [];
  }
  const builder = new FieldMapBuilder();
  addStageFields(builder, obj, doc.line);
  const stage = STAGE_FILE.exec(baseName(source.path))?.[1];
  if (stage !== undefined) builder.set('stage_id', Number(stage), doc.line);
  builder.set('client', 'inference-perf', doc.line);
  return [{ kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines }];
}

/**
 * What a report that is no run of its own is, for its `table/ignored-block` info; null for a stage's
 * report. By content first: only a stage's report has the stage's `requested_rate` (the run summary
 * and the per-adapter reports are summarized without one), and a Prometheus report has an empty
 * `load_summary` and no client-side `latency`. A per-adapter slice of a stage has the stage's rate:
 * known by its file name.
 */
function companionReport(load: JsonObject, successes: JsonObject, name: string): string | null {
  if (Object.keys(load).length === 0 && !isJsonObject(successes.latency)) {
    const stage = PROMETHEUS_STAGE_FILE.exec(name)?.[1];
    const of = stage === undefined ? 'the run' : `stage ${stage}`;
    return `inference-perf Prometheus metrics report (the model server's own metrics over ${of}, not a client measurement)`;
  }
  const adapterStage = ADAPTER_STAGE_FILE.exec(name);
  if (adapterStage) return `inference-perf per-adapter report (LoRA adapter ${adapterStage[1]}'s requests of stage ${adapterStage[2]}, counted in that stage's report)`;
  if (load.requested_rate !== undefined) return null;
  const adapter = ADAPTER_FILE.exec(name);
  if (adapter) return `inference-perf per-adapter report (LoRA adapter ${adapter[1]}'s requests over every stage)`;
  const count = typeof load.count === 'number' ? ` of ${load.count} requests` : '';
  return `inference-perf run summary${count} over every stage (each stage_N_lifecycle_metrics.json is read as a run)`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
