import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { readNumber } from '../../src/parse/values.js';
import { addMetricRow, type MetricRow, snakeMetric } from '../_shared/perf-metrics/index.js';
import { addCommandFlags, commandTool } from '../_shared/perf-metrics/cli-command.js';
import { lookupTable } from '../../src/core/cells.js';
import { metricLabel, statHeader } from '../_shared/perf-metrics/aiperf-labels.js';
import type { ConsoleTable } from './visitor.js';
import { addAiperfSpecDecodeRow } from '../genai-perf-json/spec-decode.js';
import { addGpuPowerRows, type GpuPowerRow, gpuPowerMetric, splitUnitLabel } from '../genai-perf-json/gpu-power.js';

/** One run being assembled from its tables and footer lines. */
export interface Draft {
  readonly builder: FieldMapBuilder;
  readonly line: number;
  readonly unknown: string[];
  client: 'aiperf' | 'genai-perf' | null;
  complete: boolean;
  hasMain: boolean;
  /** SDK 24.06 printed its throughputs as lines below the table. */
  bareTitle: boolean;
  /** Header cells of the last table, for a headerless continuation. */
  header: readonly string[];
  /** AIPerf's GPU power metrics, set together once the run is read (`genai-perf-json/gpu-power.ts`). */
  readonly power: GpuPowerRow[];
  /** A reasoning-token row above 0: the run counted reasoning tokens. */
  reasoning: boolean;
  /** A command pasted above the run: what its author meant to run, applied after what the tool says it ran. */
  pasted: { readonly words: readonly string[]; readonly line: number } | null;
  /** The load point its artifacts folder is named after, the last resort (artifactLoadPoint). */
  artifact: { readonly column: string; readonly value: number; readonly line: number } | null;
}

const ARTIFACT_DIR = /artifacts\/[^\s/]*?-(concurrency|request_rate)(\d+(?:\.\d+)?)\//;

/**
 * GenAI-Perf and AIPerf name a run's artifacts folder after its load point
 * (`artifacts/llama-3-openai-chat-concurrency1/profile_export_genai_perf.csv`, `…-request_rate4/`),
 * in the `CSV Export:` / `JSON Export:` lines and the `Generating artifacts/…` log lines below a run.
 */
export function artifactLoadPoint(text: string, line: number): Draft['artifact'] {
  const m = text.includes('artifacts/') ? ARTIFACT_DIR.exec(text) : null;
  if (!m?.[1] || !m[2]) return null;
  return { column: m[1] === 'concurrency' ? 'max_concurrency' : 'request_rate', value: Number(m[2]), line };
}

/**
 * AIPerf 2026's `GPU Power Efficiency (NVIDIA)` / `(AMD)` tables (ai-dynamo/aiperf
 * `exporters/console_power_efficiency_exporter.py`): the run's GPU power metrics of one vendor,
 * `avg` only, headers without the vendor. The vendor the title names, or null for another table.
 */
export function gpuPowerTable(title: string | null): 'nvidia' | 'amd' | null {
  const m = /^GPU Power Efficiency \((NVIDIA|AMD)\)$/i.exec(title?.trim() ?? '');
  return m === null ? null : ((m[1] ?? '').toLowerCase() as 'nvidia' | 'amd');
}

/** AIPerf's `Total Reasoning Tokens` row, as the CSV export is read (genai-perf-csv). */
const REASONING_ROW = /^total reasoning tokens\b/i;

/** Adds one metrics table to a run: wrapped labels joined, `N/A` skipped, cut cells reported. */
export function addTable(draft: Draft, table: ConsoleTable, source: TextSource, sink: DiagnosticSink): void {
  const at = { file: source.path, line: table.line, column: 1 };
  const title = table.title ?? '';
  if (/AIPerf/.test(title) || table.header[0] === 'Metric') draft.client ??= 'aiperf';
  if (/GenAI-Perf/.test(title) || table.header[0] === 'Statistic') draft.client ??= 'genai-perf';
  if (!table.closed) {
    draft.complete = false;
    sink.report('block/truncated', at, 'bottom border');
  }
  if (table.rows.length === 0) {
    sink.report('table/no-rows', at, title);
    return;
  }
  // A headerless piece (a table broken by a foreign line) reuses the header of the table before it.
  const header = table.header.length > 0 ? table.header : draft.header;
  draft.header = header;
  const stats = header.slice(1).map(statHeader);
  if (table.header.length === 0) sink.report('parse/syntax', at, 'a header row', table.rows[0]?.cells.join(' | ') ?? '');
  const suffix = /:\s*(.+)$/.exec(title)?.[1]?.trim().toLowerCase() ?? '';
  const prefix = suffix === '' || suffix === 'spec decode' ? '' : `${snakeMetric(suffix)}_`;
  const vendor = gpuPowerTable(table.title);
  for (const row of joinWrappedRows(table)) {
    const values: Array<readonly [string, number | null]> = [];
    row.cells.forEach((cell, k) => {
      const stat = stats[k];
      if (!stat) return;
      const n = readNumber(cell, { thousands: true });
      if (!n.ok || n.rest !== '') sink.report('table/bad-cell', { file: source.path, line: row.line, column: 1 }, row.label, cell);
      else values.push([stat, n.value]);
    });
    const mean = values.find(([stat]) => stat === 'mean')?.[1] ?? null;
    if (REASONING_ROW.test(row.label) && mean !== null && mean > 0) draft.reasoning = true;
    // AIPerf's GPU power metrics (its own table, or the run's table before 2026): set with the run
    if (draft.client === 'aiperf' && addGpuPowerRow(draft, row.label, mean, vendor, row.line)) continue;
    // AIPerf's `Spec Decode` rows: run-level ones to the spec_* columns, per-request means apart
    if (prefix === '' && draft.client === 'aiperf' && addAiperfSpecDecodeRow(draft.builder, row.label, values, row.line)) continue;
    const metric: MetricRow = { label: metricLabel(row.label, draft.client === 'aiperf'), line: row.line, stats: values };
    addMetricRow(draft.builder, metric, prefix, draft.unknown);
  }
}

/**
 * Keeps an AIPerf GPU power row (`Total GPU Energy (J)`, `Output Tokens per Joule (4 GPUs)
 * (tokens/J)`) for `setGpuPower`; false for another row. `vendor` is the one its table's title
 * names (the headers never do). A row without its average keeps nothing.
 */
function addGpuPowerRow(draft: Draft, label: string, mean: number | null, vendor: 'nvidia' | 'amd' | null, line: number): boolean {
  const { name, unit } = splitUnitLabel(label);
  const metric = gpuPowerMetric(name);
  if (metric === null) return false;
  if (mean !== null) draft.power.push({ ...metric, vendor: vendor ?? metric.vendor, unit, value: mean, line });
  return true;
}

/**
 * Sets a run's GPU power metrics as AIPerf's JSON and CSV exports are read (`addGpuPowerRows`):
 * the shared columns for one vendor, every metric under its vendor's name for two.
 */
export function setGpuPower(draft: Draft): void {
  addGpuPowerRows(draft.builder, draft.power, draft.reasoning, draft.unknown);
}

/** Rows whose value cells are all blank continue the label of the row above (wrapped labels). */
function joinWrappedRows(table: ConsoleTable): Array<{ label: string; cells: string[]; line: number }> {
  const out: Array<{ label: string; cells: string[]; line: number }> = [];
  for (const row of table.rows) {
    const [label = '', ...cells] = row.cells;
    const prev = out[out.length - 1];
    if (prev && cells.every((c) => c === '')) prev.label = `${prev.label} ${label}`.trim();
    else out.push({ label, cells, line: row.line });
  }
  return out;
}

/** Adds the configuration of an echoed or pasted `aiperf` / `genai-perf profile` command. */
export function applyCommand(draft: Draft, words: readonly string[], line: number): void {
  draft.client ??= commandTool(words);
  addCommandFlags(draft.builder, words, line);
}

/** Perf Analyzer flags GenAI-Perf passes a run's model and load point in. */
const PERF_ANALYZER_FLAGS: Readonly<Record<string, string>> = lookupTable({
  '-m': 'model',
  '--concurrency-range': 'max_concurrency',
  '--request-rate-range': 'request_rate',
});

/**
 * Adds what the Perf Analyzer command GenAI-Perf logged it ran gives: the model and the one load
 * point of a range `N` or `N:N` (a range of several is a sweep, not this run's value).
 */
export function applyPerfAnalyzer(draft: Draft, words: readonly string[], line: number): void {
  draft.client ??= 'genai-perf';
  for (let i = 0; i < words.length - 1; i++) {
    const column = PERF_ANALYZER_FLAGS[words[i] ?? ''];
    const raw = words[i + 1] ?? '';
    if (column === undefined) continue;
    if (column === 'model') {
      draft.builder.set(column, raw, line);
      continue;
    }
    const [from, to = from] = raw.split(':');
    const value = Number(from);
    if (from !== '' && from === to && Number.isFinite(value)) draft.builder.set(column, value, line);
  }
}

/** What a run's footer should have given and did not: AIPerf's duration, SDK 24.06's throughputs. */
export function missingFooter(d: Draft): string | null {
  if (!d.complete) return null;
  if (d.client === 'aiperf' && !d.builder.has('duration_s')) return 'no Benchmark Duration line after the tables';
  if (d.bareTitle && !(d.builder.has('output_throughput') && d.builder.has('request_throughput'))) return 'no throughput lines after the table';
  return null;
}
