import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber } from '../../src/parse/values.js';
import { addMetricRow, reportUnknownMetrics, withAiperfLatencyNames } from '../_shared/perf-metrics/index.js';
import { commandWords, durationSeconds, perfAnalyzerWords } from './footer.js';
import { consoleTableParser } from './parser.js';
import { consoleLexer } from './tokens.js';
import { addTable, applyCommand, applyPerfAnalyzer, artifactLoadPoint, type Draft, gpuPowerTable, missingFooter, setGpuPower } from './table.js';
import { type ConsoleItem, type ConsoleTable, toItems } from './visitor.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { signature } from '../../src/parse/signature.js';
import { readingAcrossGaps, readingAcrossTableGaps } from '../_shared/table-gaps.js';
import { titleGaps } from './title-gaps.js';

const TITLE = signature(['NVIDIA GenAI-Perf |', 'NVIDIA AIPerf |'], /^[^\S\n]*NVIDIA (?:GenAI-Perf|AIPerf) \| [A-Z][\w :]*$/m);
const BOX = /^[^\S\n]*[┏┃│]/m;
const HEADER = signature(['┃'], /^[^\S\n]*┃\s*(?:Statistic|Metric)\s*┃\s*avg\s*┃/m);
/**
 * Lines AIPerf prints after its tables that carry nothing for a run; 2026 adds the one-line
 * histogram of accepted drafts per verify step below the `Spec Decode` table (shares of steps, no
 * canonical column).
 */
const KNOWN_TAIL = /^(?:#|(?:CSV|JSON) Export:|Log File:|Accepted-draft histogram\b|\S+\.(?:csv|json|jsonl|log)$)/;
/**
 * The title lines AIPerf prints above its first per-GPU telemetry table (`AIPerf | GPU Telemetry
 * Summary`, `1/1 telemetry sources reachable`, `• localhost:9400 ✔`) or instead of the tables
 * (ai-dynamo/aiperf `exporters/gpu_telemetry_console_exporter.py`): rich prints only the last line
 * of a multi-line title right above the table.
 */
const TELEMETRY_TITLE = /^(?:AIPerf \| GPU Telemetry Summary$|\d+\/\d+ telemetry sources reachable$|• \S.*[✔✘]|No GPU telemetry data collected\b|Unreachable endpoints:$)/;
/**
 * AIPerf's steady-state table (`NVIDIA AIPerf | Steady-State Metrics`, ai-dynamo/aiperf
 * `exporters/console_steady_state_exporter.py`): the run's metrics again over its steady-state
 * window, below the grid of window facts it prints first. Read as a table it started a second run.
 */
const STEADY_STATE_TITLE = /\bSteady-State Metrics\s*$/;
const STEADY_STATE_GRID = /^(?:Window|Concurrency|Throughput|Prefill Tput|Total Tput|Tput\/User|Prefill\/User|Gen Conc|Prefill Conc|Tokens In Flight|Status|Warning): |^Bootstrap 95% CI\b/;

/** NVIDIA GenAI-Perf and AIPerf console tables (`rich` boxes), 2024 → 2026. */
const consoleTables: Grammar = {
  id: 'genai-perf-console',
  title: 'GenAI-Perf / AIPerf console tables',
  readsLineText: true,
  detect({ head }) {
    if (TITLE.test(head) && BOX.test(head)) return { score: 0.9, reason: 'NVIDIA GenAI-Perf / AIPerf table title' };
    if (HEADER.test(head)) return { score: 0.8, reason: 'rich table with Statistic/Metric | avg header' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // in pieces (src/parse/pieces.ts) cut before a line of text, not blank nor a table's: the
    // table above ends there, and the line above is no title (that line is no table's border)
    const items: ConsoleItem[] = [];
    // (nor inside a rich panel: its bottom border ends it)
    const cutsBefore = (i: number): boolean => /\S/.test(source.lines[i] as string) && !/^\s*[┏┃│└┡╰]/.test(source.lines[i] as string);
    for (const piece of lexedPieces(source.lines, cutsBefore, (text) => consoleLexer().tokenize(text))) {
      for (const item of toItems(parseTokens(consoleTableParser(), piece.tokens, (p) => p.document()))) items.push(item);
    }
    return toRuns(items, source, sink);
  },
};

/** Read across lines written into its tables (tableGaps) or between a run's table and its title (titleGaps). */
export const grammar: Grammar = readingAcrossTableGaps(readingAcrossGaps(consoleTables, (lines) => titleGaps(lines, readTableTitle)));

/** `… | LLM Metrics: image-only (40% of traffic)`: one request archetype's share of a media-mix run. */
const ARCHETYPE_SHARE = /\(\d+% of traffic\)\s*$/;
/** Rows only the run-wide table and its per-archetype copies have (a suffixed table of throughputs has none). */
const LATENCY_ROW = /^(?:Request Latency|Time to First Token)\b/i;

/**
 * Metrics tables AIPerf 2026 prints beside a run's own that are no part of it (ai-dynamo/aiperf
 * `src/aiperf/exporters/`): the serving engine's gauges (`Server Metrics: Speculative Decoding`,
 * SGLang's acceptance of its last logging interval averaged over scrapes, not the run's: see
 * genai-perf-json/README.md), developer-mode tables (`Experimental Metrics`, `Internal Metrics`,
 * which would otherwise start a second run), and the per-archetype copies of the run's table
 * (`LLM Metrics: <archetype>`, `console_archetype_metrics_exporter.py`): the same metrics over a
 * subset of its requests. Why the table is left out, or null for a table of the run.
 */
function asideTable(table: ConsoleTable): string | null {
  const title = table.title;
  if (title === null) return null;
  if (/\| Server Metrics\b/.test(title)) return "the serving engine's Prometheus gauges, not the run's own metrics";
  if (/\b(?:Experimental|Internal) Metrics\b/.test(title)) return 'AIPerf developer-mode metrics';
  const suffix = /Metrics:\s*(.+)$/.exec(title)?.[1]?.trim() ?? null;
  if (suffix === null || /^spec decode$/i.test(suffix)) return null;
  if (ARCHETYPE_SHARE.test(suffix) || table.rows.some((r) => LATENCY_ROW.test(r.cells[0] ?? ''))) {
    return "one request archetype's metrics: the run is the table over all its requests";
  }
  return null;
}

/** A metrics table's title as rich prints it (`NVIDIA AIPerf | LLM Metrics: Spec Decode`, SDK 24.06's `LLM Metrics`), not prose naming one. */
const METRICS_TITLE = /^(?:NVIDIA (?:GenAI-Perf|AIPerf) \| )?LLM Metrics(?::[^|]*)?$/;

/** The title of a table a run is read from (its metrics, AIPerf's GPU power efficiency), not one of those left out. */
function readTableTitle(text: string): boolean {
  const title = text.trim();
  return (METRICS_TITLE.test(title) && !STEADY_STATE_TITLE.test(title)) || gpuPowerTable(title) !== null;
}

function toRuns(items: readonly ConsoleItem[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let pendingCommand: { words: string[]; line: number } | null = null;
  let pendingAnalyzer: { words: string[]; line: number } | null = null;
  const unrecognized: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!item) continue;
    // the load point an `artifacts/…-concurrency16/` path names (a line with none: one `includes`)
    const point = item.kind === 'table' ? null : artifactLoadPoint(item.text, item.line);
    if (item.kind === 'table') {
      const [firstInterleaved] = item.interleaved;
      if (firstInterleaved !== undefined) sink.report('block/interleaved-line', { file: source.path, line: firstInterleaved, column: 1 }, item.interleaved.length);
      // AIPerf's GPU power efficiency tables belong to the run above them
      if (gpuPowerTable(item.title) !== null && current !== null) {
        addTable(current, item, source, sink);
        continue;
      }
      if (item.title !== null && !/\bMetrics\b/.test(item.title)) {
        sink.report('table/ignored-block', { file: source.path, line: item.line, column: 1 }, `table ${JSON.stringify(item.title)}`);
        continue;
      }
      if (item.title !== null && STEADY_STATE_TITLE.test(item.title)) {
        sink.report('table/ignored-block', { file: source.path, line: item.line, column: 1 }, `table ${JSON.stringify(item.title)} (the run's metrics again over its steady-state window)`);
        continue;
      }
      const aside = asideTable(item);
      if (aside !== null) {
        sink.report('table/ignored-block', { file: source.path, line: item.line, column: 1 }, `table ${JSON.stringify(item.title)} (${aside})`);
        continue;
      }
      // `LLM Metrics` starts a run; `LLM Metrics: Spec Decode` and untitled pieces join it: rows
      // with no top border either are a piece of a table a line written into it broke off its title
      if (item.title === null && !item.opened && current !== null && item.rows.length > 0) sink.report('table/fragment', { file: source.path, line: item.line, column: 1 });
      const main = item.title !== null && !item.title.includes(':');
      // every version titles its tables: one with none that would start a run lost its title line
      // (a log kept from its middle), and the steady-state or an archetype's table reads the same
      if (current === null && item.title === null && item.rows.length > 0) sink.report('table/untitled', { file: source.path, line: item.line, column: 1 });
      if (current === null || (main && current.hasMain)) {
        current = { builder: new FieldMapBuilder(), line: item.line, unknown: [], client: null, complete: true, hasMain: false, bareTitle: item.title?.trim() === 'LLM Metrics', header: [], power: [], reasoning: false, pasted: null, artifact: null };
        drafts.push(current);
      }
      current.hasMain ||= main;
      addTable(current, item, source, sink);
      if (pendingAnalyzer) applyPerfAnalyzer(current, pendingAnalyzer.words, pendingAnalyzer.line);
      current.pasted ??= pendingCommand;
      pendingAnalyzer = null;
      pendingCommand = null;
    } else if (item.kind === 'cli') {
      const { words, consumed } = commandWords(items, i);
      i += consumed;
      // AIPerf echoes its command after the tables; a pasted shell command precedes them.
      if (current && item.text.startsWith('CLI Command:')) applyCommand(current, words, item.line);
      else pendingCommand = { words, line: item.line };
    } else if (item.kind === 'metric') {
      const [label = '', value = ''] = item.text.split(/:\s*(?=[\d,.]+$)/);
      const n = readNumber(value, { thousands: true }).value;
      if (current) addMetricRow(current.builder, { label, line: item.line, stats: [['mean', n]] }, '', current.unknown);
    } else if (item.kind === 'duration') {
      const seconds = durationSeconds(item.text);
      if (seconds === null) sink.report('table/bad-cell', { file: source.path, line: item.line, column: 1 }, 'Benchmark Duration', item.text);
      else current?.builder.set('duration_s', seconds, item.line);
    } else if (item.kind === 'panel') {
      // AIPerf's notice above its GPU sections (`GPU Telemetry Platform`): no figure of the run
      continue;
    } else if (point !== null) {
      if (current) current.artifact ??= point;
    } else if (item.text.includes('Running Perf Analyzer')) {
      const words = perfAnalyzerWords(item.text);
      if (words) pendingAnalyzer = { words, line: item.line };
      else unrecognized.push(item.line);
    } else if (readTableTitle(item.text)) {
      // the title of a table the run is read from, with no table below it: a line written between them took its place
      sink.report('parse/syntax', { file: source.path, line: item.line, column: 1 }, 'the table below this title', item.text);
    } else if (item.text !== '' && !KNOWN_TAIL.test(item.text) && !STEADY_STATE_GRID.test(item.text) && !TELEMETRY_TITLE.test(item.text)) {
      unrecognized.push(item.line);
    }
  }
  const first = unrecognized[0];
  if (first !== undefined) sink.report('parse/unrecognized-lines', { file: source.path, line: first, column: 1 }, unrecognized.length);
  const ctx = documentContext(source.lines);
  let floor = -1;
  for (const d of drafts) setGpuPower(d);
  return drafts.filter((d) => d.builder.size > 0).map((d) => {
    if (d.pasted) applyCommand(d, d.pasted.words, d.pasted.line);
    if (d.artifact) d.builder.set(d.artifact.column, d.artifact.value, d.artifact.line);
    const missing = missingFooter(d);
    if (missing !== null) {
      d.complete = false;
      sink.report('block/truncated', { file: source.path, line: d.line, column: 1 }, missing);
    }
    d.builder.set('client', d.client ?? 'genai-perf', d.line);
    if (d.client === 'aiperf') withAiperfLatencyNames(d.builder);
    reportUnknownMetrics(d.unknown, sink, source.path, d.line);
    const label = labelAbove(ctx, source.lines, d.line - 1, floor);
    floor = d.line - 1;
    return { kind: 'run', at: { file: source.path, line: d.line, column: 1 }, label, complete: d.complete, fields: d.builder.fields, lines: d.builder.lines };
  });
}
