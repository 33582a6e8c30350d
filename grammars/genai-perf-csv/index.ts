import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { readNumber } from '../../src/parse/values.js';
import { type CsvRow, csvRows } from '../_shared/csv/index.js';
import { addMetricRow, reportUnknownMetrics, withAiperfLatencyNames } from '../_shared/perf-metrics/index.js';
import { metricLabel, statHeader } from '../_shared/perf-metrics/aiperf-labels.js';
import { aiperfPartialExport } from '../_shared/perf-metrics/aiperf-folders.js';
import { companionCsv, isCompanionFirstLine } from './companion-exports.js';
import { firstFileLine } from '../_shared/interleaved-line.js';
import { addAiperfSpecDecodeRow } from '../genai-perf-json/spec-decode.js';
import { addGpuPowerRows, type GpuPowerRow, gpuPowerMetric, splitUnitLabel } from '../genai-perf-json/gpu-power.js';

/** First line of the export: the statistics header or the `Metric,Value` header. */
const SIGNATURE = /^\s*Metric,(?:avg,min,max|Value\s*$)/;
/** First line of AIPerf's `profile_export_aiperf_aggregate.csv` (`--num-profile-runs`). */
const AGGREGATE_SIGNATURE = /^\s*metric,mean,std,min,max,cv,se,ci_low,ci_high\b/;
const SUMMARY_COLUMNS = ['output_throughput', 'request_throughput'];
/** Units only AIPerf prints; GenAI-Perf says `(per sec)` and `(count)`. */
const AIPERF_UNITS = /\((?:requests\/sec|requests|tokens\/sec\/user)\)/;

const OPENS_JSON = /^\s*[[{]/;

/** `profile_export_genai_perf.csv` (GenAI-Perf) and `profile_export_aiperf.csv` (AIPerf). */
export const grammar: Grammar = {
  id: 'genai-perf-csv',
  title: 'GenAI-Perf / AIPerf CSV export',
  readsLineText: true,
  detect({ head }) {
    // every header below starts with a word: JSON, the most common head of a folder, is none of them
    if (OPENS_JSON.test(head)) return NOT_MINE;
    const end = head.indexOf('\n');
    const first = end < 0 ? head : head.slice(0, end);
    if (SIGNATURE.test(first)) return { score: 0.8, reason: 'Metric,avg,min,max / Metric,Value header' };
    if (AGGREGATE_SIGNATURE.test(first)) return { score: 0.8, reason: 'AIPerf multi-run aggregate header (mean,std,…,ci_low,ci_high)' };
    if (isCompanionFirstLine(first)) return { score: 0.8, reason: 'AIPerf export beside the run (time slices, archetypes, steady state, server metrics, sweep)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    if (AGGREGATE_SIGNATURE.test(firstFileLine(source.lines))) {
      // Each run's own export is a run; the aggregate over them would count them twice.
      sink.report('table/ignored-block', { file: source.path, line: 1, column: 1 }, "AIPerf multi-run aggregate (each run's profile_export_aiperf.csv under profile_runs/ is read as a run)");
      return [];
    }
    const companion = companionCsv(source.lines);
    if (companion !== null) {
      // the same run's metrics again (per slice, archetype or window), or a summary over runs
      sink.report('table/ignored-block', { file: source.path, line: 1, column: 1 }, companion);
      return [];
    }
    const runs = toRuns(csvRows(source, sink), source, sink);
    const partial = runs.some((r) => r.kind === 'run' && r.fields.client === 'aiperf') ? aiperfPartialExport(source.path) : null;
    if (partial === null) return runs;
    // a run's metrics again, for one time slice or phase: the folder's own export is the run
    sink.report('table/ignored-block', { file: source.path, line: 1, column: 1 }, partial);
    return [];
  },
};

type BlockKind = 'stats' | 'value' | 'telemetry' | 'unknown';

interface Draft {
  readonly builder: FieldMapBuilder;
  readonly line: number;
  readonly unknown: string[];
  aiperf: boolean;
  complete: boolean;
  /** 2025+ labels carry units (`Output Sequence Length (tokens)`); SDK 24.x ones did not. */
  unitLabels: boolean;
  seen: Set<BlockKind>;
  /** AIPerf's own GPU power rows (`../genai-perf-json/gpu-power.ts`), set once the run is read. */
  power: GpuPowerRow[];
  /** `Total Reasoning Tokens` above 0: the run counted reasoning tokens. */
  reasoning: boolean;
}

function toRuns(rows: Iterable<CsvRow>, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const drafts: Draft[] = [];
  let draft: Draft | null = null;
  let kind: BlockKind = 'unknown';
  let stats: Array<string | null> = [];
  const unrecognized: number[] = [];
  for (const row of rows) {
    const [first = '', ...rest] = row.cells.map((c) => c.trim());
    if (first === 'Metric' || (first === 'Endpoint' && rest.includes('Metric'))) {
      kind = first === 'Endpoint' ? 'telemetry' : blockKind(rest);
      if (kind === 'telemetry') sink.report('table/ignored-block', { file: source.path, line: row.line, column: 1 }, 'GPU telemetry block');
      if (kind === 'stats' || kind === 'value') {
        if (draft === null || draft.seen.has(kind)) {
          draft = { builder: new FieldMapBuilder(), line: row.line, unknown: [], aiperf: false, complete: true, unitLabels: false, seen: new Set(), power: [], reasoning: false };
          drafts.push(draft);
        }
        draft.seen.add(kind);
        draft.aiperf ||= rest.includes('std');
      }
      stats = kind === 'value' ? ['mean'] : rest.map(statHeader);
      continue;
    }
    if (kind === 'telemetry') continue;
    if (kind === 'unknown' || draft === null) {
      unrecognized.push(row.line);
      continue;
    }
    draft.aiperf ||= AIPERF_UNITS.test(first);
    draft.unitLabels ||= /\((?:tokens|count|requests)(?:\/sec(?:\/user)?)?\)$/.test(first);
    if (rest.length < stats.length) {
      draft.complete = false;
      sink.report('table/short-row', { file: source.path, line: row.line, column: 1 }, first, rest.length, stats.length);
    }
    const values: Array<readonly [string, number | null]> = [];
    rest.forEach((cell, k) => {
      const stat = stats[k];
      // AIPerf writes a statistic it has none of as an empty cell
      if (!stat || cell.trim() === '') return;
      const n = readNumber(cell, { thousands: true });
      if (!n.ok || n.rest !== '') sink.report('table/bad-cell', { file: source.path, line: row.line, column: 1 }, first, cell);
      else values.push([stat, n.value]);
    });
    // AIPerf's speculative-decoding rows: run-level ones to the spec_* columns, per-request means apart
    if (draft.aiperf && addAiperfSpecDecodeRow(draft.builder, first, values, row.line)) continue;
    const { name, unit } = splitUnitLabel(first);
    const avg = values.find(([s]) => s === 'mean')?.[1];
    if (/^total reasoning tokens$/i.test(name) && typeof avg === 'number' && avg > 0) draft.reasoning = true;
    const gpu = gpuPowerMetric(name);
    if (gpu !== null) {
      if (typeof avg === 'number') draft.power.push({ ...gpu, unit, value: avg, line: row.line });
      continue;
    }
    addMetricRow(draft.builder, { label: metricLabel(first, draft.aiperf), line: row.line, stats: values }, '', draft.unknown);
  }
  const firstBad = unrecognized[0];
  if (firstBad !== undefined) sink.report('parse/unrecognized-lines', { file: source.path, line: firstBad, column: 1 }, unrecognized.length);
  return drafts
    .filter((d) => d.builder.size > 0)
    .map((d) => {
      // The summary block always has both throughputs, and a request count since labels got units.
      const missing = [...SUMMARY_COLUMNS, ...(d.unitLabels || d.aiperf ? ['completed'] : [])].filter((c) => !d.builder.has(c));
      if (missing.length > 0) {
        d.complete = false;
        sink.report('block/truncated', { file: source.path, line: d.line, column: 1 }, `no ${missing.join(', ')} in a Metric,Value block`);
      }
      addGpuPowerRows(d.builder, d.power, d.reasoning, d.unknown);
      d.builder.set('client', d.aiperf ? 'aiperf' : 'genai-perf', d.line);
      if (d.aiperf) withAiperfLatencyNames(d.builder);
      reportUnknownMetrics(d.unknown, sink, source.path, d.line);
      return { kind: 'run', at: { file: source.path, line: d.line, column: 1 }, label: null, complete: d.complete, fields: d.builder.fields, lines: d.builder.lines };
    });
}

function blockKind(header: readonly string[]): BlockKind {
  if (header[0] === 'GPU') return 'telemetry';
  if (header.length === 1 && header[0] === 'Value') return 'value';
  return header.some((h) => statHeader(h) !== null) ? 'stats' : 'unknown';
}
