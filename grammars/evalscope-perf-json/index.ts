import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { counted } from '../../src/core/counted.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { BenchRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { isJsonObject, type JsonObject, type JsonValue, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { ARGS_OWN, ARGS_REQUIRED, argsConfig } from './args.js';
import { percentileRecord } from './percentiles.js';
import { CLIENT, hasSummaryDuration, SUMMARY_SECOND, summaryRun } from './summary.js';
import { isSuiteSummary, perLoadKind, suiteRuns } from './suite.js';
import { legacyMetricsRecord, type MultiTurnKind, multiTurnKind, reportUnread } from './multi-turn.js';

/** `benchmark_percentile.json`: rows (or, transposed, columns) keyed `Percentiles` (2024: `Percentile`). */
const PERCENTILE_KEY = /"Percentiles?"\s*:/;
const PERCENTILE_METRIC = /"(?:TTFT|ITL|TPOT|Latency|First Chunk Latency) \((?:s|ms)\)"\s*:/;
/** `speed_benchmark.json` (the `speed_benchmark` dataset): speed and GPU memory per prompt length. */
const SPEED_BENCHMARK = [/"Prompt Tokens"\s*:/, /"Speed\(tokens\/s\)"\s*:/];

type Kind = 'summary' | 'args' | 'percentile' | 'speed' | 'suite' | 'load-summary' | 'load-percentiles' | MultiTurnKind;

function kindOf(text: string): Kind | null {
  // the 2026 engine's suite folder (suite.ts): literals first, they decide
  if (isSuiteSummary(text)) return 'suite';
  // multi-turn companions (multi-turn.ts): per-conversation summary, workload windows and timeline
  const multiTurn = multiTurnKind(text);
  if (multiTurn) return multiTurn;
  const perLoad = perLoadKind(text);
  if (perLoad) return perLoad === 'summary' ? 'load-summary' : 'load-percentiles';
  if (hasSummaryDuration(text) && SUMMARY_SECOND.test(text)) return 'summary';
  if (PERCENTILE_KEY.test(text) && PERCENTILE_METRIC.test(text)) return 'percentile';
  if (ARGS_REQUIRED.every((re) => re.test(text)) && ARGS_OWN.test(text)) return 'args';
  if (SPEED_BENCHMARK.every((re) => re.test(text))) return 'speed';
  return null;
}

/**
 * ModelScope EvalScope `evalscope perf`: the JSON files of one run's output folder
 * (`<outputs>/<time>/<model>/`, or its `parallel_<N>_number_<M>/` sub-folder when several
 * parallel values were given). `benchmark_summary.json` is the run; `benchmark_args.json` its
 * configuration (a `bench-config` ConfigRecord for the evalscope runs of its folder and below);
 * `benchmark_percentile.json` more results of the run beside it (a `bench-metrics` ConfigRecord:
 * its percentiles fill the run's empty cells); `speed_benchmark.json` is said, not read.
 */
export const grammar: Grammar = {
  id: 'evalscope-perf-json',
  title: 'EvalScope perf benchmark JSON (benchmark_summary / _args / _percentile)',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    switch (kindOf(head)) {
      case 'summary':
        return { score: 0.85, reason: 'JSON with evalscope perf summary keys (Time taken for tests / Test Duration, concurrency, requests)' };
      case 'percentile':
        return { score: 0.8, reason: 'JSON with evalscope perf percentile rows (Percentiles, TTFT/Latency columns)' };
      case 'args':
        return { score: 0.7, reason: 'JSON with evalscope perf Arguments (parallel, number, model, log_every_n_query…)' };
      case 'speed':
        return { score: 0.7, reason: 'JSON with evalscope speed_benchmark rows (Prompt Tokens, Speed(tokens/s))' };
      case 'suite':
        return { score: 0.85, reason: 'JSON with an evalscope perf suite result (suite_config, runs with run_spec and load_id)' };
      case 'legacy-trace':
      case 'legacy-throughput':
      case 'legacy-timeline':
        return { score: 0.6, reason: 'JSON with an evalscope perf multi-turn companion (trace_summary n_traces/rows, workload_throughput windows, workload_timeline cumulative points)' };
      case 'engine-trace':
      case 'engine-workload':
        return { score: 0.6, reason: 'JSON with an evalscope perf engine per-load trace_summary (trace_count, averages, percentiles) or workload_timeline (overall/last_window/steady_state)' };
      case 'load-summary':
      case 'load-percentiles':
        return { score: 0.6, reason: 'JSON with an evalscope perf engine per-load summary or percentiles (succeeded/dropped/averages, minimum…maximum)' };
      default:
        return NOT_MINE;
    }
  },
  parse(source, sink) {
    const text = source.lines.slice(0, 400).join('\n');
    const kind = kindOf(text);
    const out: BenchRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const at: SourcePos = { file: source.path, line: doc.line, column: 1 };
      if (kind === 'percentile') {
        const record = percentileRecord(doc.value, at, CLIENT);
        if (record) out.push(record);
        else reportTable(kind, doc.value, at, sink);
        continue;
      }
      if (kind === 'speed') {
        reportTable(kind, doc.value, at, sink);
        continue;
      }
      if (kind === 'legacy-trace' || kind === 'legacy-throughput') {
        const record = legacyMetricsRecord(kind, doc.value, at, CLIENT, sink);
        if (record) out.push(record);
        continue;
      }
      if (kind === 'legacy-timeline' || kind === 'engine-trace' || kind === 'engine-workload') {
        reportUnread(kind, doc.value, at, sink);
        continue;
      }
      if (kind === 'suite' && isJsonObject(doc.value)) {
        out.push(...suiteRuns(doc.value, at, source, sink));
        continue;
      }
      if (kind === 'load-summary' || kind === 'load-percentiles') {
        // the same values as the load's entry in suite_summary.json, read from there with its model and load
        sink.report('table/ignored-block', at, `evalscope perf engine per-load ${kind === 'load-summary' ? 'summary' : 'percentiles'} (its run is read from the suite_summary.json two folders up)`);
        continue;
      }
      if (!isJsonObject(doc.value)) {
        sink.report('json/not-a-result', at, Array.isArray(doc.value) ? 'array' : typeof doc.value);
        continue;
      }
      const record = kind === 'args' ? argsConfig(doc.value, at, source) : summaryOrNot(doc.value, at, source, sink);
      if (record) out.push(record);
    }
    return out;
  },
};

function summaryOrNot(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): BenchRecord | null {
  if (!Object.hasOwn(obj, 'Time taken for tests (s)') && !Object.hasOwn(obj, 'Test Duration (s)')) {
    sink.report('json/not-a-result', at, Object.keys(obj).slice(0, 6).join(', '));
    return null;
  }
  return summaryRun(obj, at, source, sink);
}

/**
 * The speed benchmark's rows, or a percentile table with no value to map: one info with their
 * size. The run they belong to is the `benchmark_summary.json` beside them.
 */
function reportTable(kind: 'percentile' | 'speed', value: JsonValue, at: SourcePos, sink: DiagnosticSink): void {
  if (kind === 'speed') {
    const rows = Array.isArray(value) ? value.length : 0;
    sink.report('table/ignored-block', at, `evalscope speed_benchmark table (${counted(rows, 'prompt length')}; its run is the benchmark_summary.json beside it)`);
    return;
  }
  let labels: JsonValue[] = [];
  let metrics = new Set<string>();
  if (Array.isArray(value)) {
    const rows = value.filter(isJsonObject);
    labels = rows.map((r) => r.Percentiles ?? r.Percentile ?? null);
    metrics = new Set(rows.flatMap((r) => Object.keys(r)));
  } else if (isJsonObject(value)) {
    const col = value.Percentiles ?? value.Percentile;
    labels = Array.isArray(col) ? col : [];
    metrics = new Set(Object.keys(value));
  }
  metrics.delete('Percentiles');
  metrics.delete('Percentile');
  const span = labels.length > 0 ? ` ${String(labels[0])}…${String(labels[labels.length - 1])}` : '';
  sink.report('table/ignored-block', at, `evalscope percentile table (${counted(labels.length, 'percentile')}${span} of ${counted(metrics.size, 'metric')}; none of them a latency or length column)`);
}
