import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { percentToFraction, readNumber } from '../../src/parse/values.js';
import { snakeCase } from '../_shared/serving-block/fields.js';
import { breakdownColumn, convertUnit, decodingMethod, isStatSection, labelSpec, type LabelSpec, reportKey, schedulingPolicy, statName, statSectionColumn } from './labels.js';
import type { Report, ReportLine, ReportSection } from './visitor.js';

/** Values that mean "not set" in the report (`None`, `N/A`). */
const UNSET = /^(?:none|n\/a|null)$/i;

/** Reads every section of a report into canonical columns. */
export function addReportFields(report: Report, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const approximate = new Set<string>();
  const misprinted = misprintedLabels(report);
  for (const section of report.sections) {
    sectionFacts(section, builder);
    const seen = new Set<string>();
    const stats = isStatSection(section.title);
    for (const l of section.lines) {
      const at = { file, line: l.line, column: 1 };
      // (the latency report's breakdowns: `MIN (ms): x` lexes as a label line, `MIN: 1.00` as a
      // dataset row; neither is either)
      if (stats && (l.kind === 'kv' || l.kind === 'row')) addStatLine(l, section.title, seen, builder, sink, file);
      else if (l.kind === 'kv') addKv(l, section.title, seen, misprinted, builder, sink, file);
      else if (l.kind === 'breakdown') addBreakdown(l, builder, sink, file);
      else if (l.kind === 'row') addDatasetRow(l, builder, sink, file, approximate);
      else if (l.kind === 'machine') addMachine(l, builder);
      else if (l.kind === 'sub' || l.kind === 'other') continue;
      else sink.report('block/unknown-label', at, l.text);
    }
  }
  settleLengths(builder, approximate);
  settleIssueRate(builder);
}

function sectionFacts(section: ReportSection, builder: FieldMapBuilder): void {
  const t = section.title.toLowerCase();
  if (t === 'engine details') builder.set('backend', 'tensorrt', section.line);
  else if (t === 'pytorch backend') builder.set('backend', 'pytorch', section.line);
  const mode = /^decoding statistics\s*\((.+)\)$/i.exec(section.title);
  if (mode?.[1]) builder.set('spec_method', decodingMethod(mode[1], builder.fields.backend), section.line);
}

/**
 * Labels a report prints another value under: the suite's first BenchmarkResults (the one whose
 * METADATA has `KV Cache Size (tokens)`) prints `Total Output Length: {self.total_input_tokens}`.
 */
function misprintedLabels(report: Report): ReadonlySet<string> {
  const kvCacheSize = report.sections.some((s) => s.lines.some((l) => l.kind === 'kv' && reportKey(l.text.slice(0, l.text.indexOf(':'))) === 'kv cache size (tokens)'));
  return new Set(kvCacheSize ? ['total output length'] : []);
}

function addKv(l: ReportLine, section: string, seen: Set<string>, misprinted: ReadonlySet<string>, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const at = { file, line: l.line, column: 1 };
  const i = l.text.indexOf(':');
  const label = l.text.slice(0, i).trim();
  const raw = l.text.slice(i + 1).trim();
  const key = reportKey(label);
  if (seen.has(key)) {
    sink.report('block/duplicate-label', at, label);
    return;
  }
  seen.add(key);
  if (misprinted.has(key)) return;
  const spec: LabelSpec | undefined = labelSpec(section, key);
  if (!spec) {
    sink.report('block/unknown-label', at, label);
    const v = readNumber(raw);
    builder.set(snakeCase(label), v.ok && v.rest === '' ? v.value : raw, l.line);
    return;
  }
  if (spec.kind === 'string' || spec.kind === 'policy') {
    const value = raw === '' || UNSET.test(raw) ? null : spec.kind === 'policy' ? schedulingPolicy(raw) : raw;
    builder.set(spec.column, value, l.line);
    return;
  }
  if (spec.kind === 'flag') {
    const flag = /^(true|false)$/i.exec(raw);
    if (flag?.[1]) builder.set(spec.column, flag[1].toLowerCase() === 'true', l.line);
    else sink.report('block/bad-value', at, label, raw);
    return;
  }
  const v = readNumber(raw);
  if (!v.ok) {
    sink.report('block/bad-value', at, label, raw);
    return;
  }
  if (v.value === null) {
    builder.set(spec.column, null, l.line);
    return;
  }
  if (spec.zeroUnmeasured && v.value === 0) return;
  const value = spec.kind === 'percent' ? percentToFraction(v.value) : convertUnit(v.value, spec.unit, spec.column);
  builder.set(spec.column, value, l.line);
}

/**
 * A line of the latency report's GENERATION LATENCY BREAKDOWN (`P95 (ms): 63331.7136`) or
 * ACCEPTANCE BREAKDOWN (`MIN: 1.00`): one statistic of its section's quantity (statSectionColumn).
 */
function addStatLine(l: ReportLine, section: string, seen: Set<string>, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const at = { file, line: l.line, column: 1 };
  const i = l.text.indexOf(':');
  const label = l.text.slice(0, i).trim();
  const raw = l.text.slice(i + 1).trim();
  if (seen.has(reportKey(label))) {
    sink.report('block/duplicate-label', at, label);
    return;
  }
  seen.add(reportKey(label));
  const column = statSectionColumn(section, label);
  if (column === null) {
    sink.report('block/unknown-label', at, label);
    return;
  }
  const v = readNumber(raw);
  if (!v.ok || v.value === null || v.rest !== '') {
    sink.report('block/bad-value', at, label, raw);
    return;
  }
  builder.set(column, v.value, l.line);
}

function addBreakdown(l: ReportLine, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const at = { file, line: l.line, column: 1 };
  const m = /^\[([A-Za-z]+)\]\s*([A-Za-z0-9.]+)\s*:\s*(.*)$/.exec(l.text);
  if (!m?.[1] || !m[2]) return;
  const column = breakdownColumn(m[1], m[2]);
  const label = `[${m[1]}] ${m[2]}`;
  if (column === null) {
    sink.report('block/unknown-label', at, label);
    return;
  }
  const v = readNumber(m[3] ?? '');
  if (!v.ok || v.value === null) {
    sink.report('block/bad-value', at, label, m[3] ?? '');
    return;
  }
  builder.set(column, v.value, l.line);
}

const DATASET_COLUMNS = ['input_len', 'output_len', 'seq_len'];

/**
 * `1.31e+05`: DATASET DETAILS prints a statistic ≥ 100000 as `%9.2e` (general.py, `_format_number`),
 * three significant digits: 131072 reads as 131000, and 130500 and 131400 read alike.
 */
const E_NOTATION = /[eE]/;

/**
 * `P50:   128.0000   256.0000   384.0000` → dataset_median_input_len, …_output_len, …_seq_len.
 * A cell in e-notation keeps its printed value, and its column goes into `approximate`.
 */
function addDatasetRow(l: ReportLine, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath, approximate: Set<string>): void {
  const m = /^(\w+(?:\.\d+)?):\s+(.*)$/.exec(l.text);
  const stat = statName(m?.[1] ?? '');
  if (!m?.[2] || stat === null) return;
  const cells = m[2].trim().split(/\s+/);
  cells.forEach((cell, i) => {
    const column = DATASET_COLUMNS[i];
    const v = readNumber(cell);
    if (column === undefined) return;
    if (!v.ok || v.value === null) {
      sink.report('block/bad-value', { file, line: l.line, column: 1 }, `${m[1]} ${column}`, cell);
      return;
    }
    const name = `dataset_${stat}_${column}`;
    if (builder.set(name, v.value, l.line) && E_NOTATION.test(cell)) approximate.add(name);
  });
}

function addMachine(l: ReportLine, builder: FieldMapBuilder): void {
  const m = /^(.+?), memory (\S+)(?: GB)?, (\S+)(?: GHz)?\s*$/.exec(l.text);
  if (!m?.[1]) return;
  builder.set('gpu', m[1].trim(), l.line);
  const mem = readNumber(m[2] ?? '');
  if (mem.ok && mem.value !== null) builder.set('gpu_memory_gb', mem.value, l.line);
}

/**
 * Configured lengths are known only when the dataset's min and max agree (fixed-length data), and
 * both were printed exactly: rounded values (`approximate`, the columns printed in e-notation) that
 * agree say neither that the lengths are all one nor which length it is.
 */
export function settleLengths(builder: FieldMapBuilder, approximate: ReadonlySet<string> = new Set()): void {
  for (const [column, stem] of [
    ['input_len', 'input_len'],
    ['output_len', 'output_len'],
  ] as const) {
    const minColumn = `dataset_min_${stem}`;
    const maxColumn = `dataset_max_${stem}`;
    if (approximate.has(minColumn) || approximate.has(maxColumn)) continue;
    const min = builder.fields[minColumn];
    const max = builder.fields[maxColumn];
    if (typeof min === 'number' && min === max) builder.set(column, min, builder.lines[minColumn] ?? 0);
  }
}

/** Issue rates above this many req/s mean every request was issued at once (no rate limit). */
const ALL_AT_ONCE_REQ_S = 1e6;

/**
 * The report's Issue Rate is MEASURED (requests issued / time spent issuing them), so it differs
 * between repeats of one configuration: it stays in `issue_rate`. Only an unthrottled run (1e13 …
 * 1e18 req/s) becomes the configuration `request_rate = Infinity`, as vLLM/SGLang print `inf`.
 */
export function settleIssueRate(builder: FieldMapBuilder): void {
  const rate = builder.fields.issue_rate;
  if (typeof rate === 'number' && rate >= ALL_AT_ONCE_REQ_S) builder.set('request_rate', Infinity, builder.lines.issue_rate ?? 0);
}
