import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { canonicalDataset } from '../../src/normalize/dataset.js';
import { scaleExact } from '../../src/parse/values.js';
import { snakeCase } from '../_shared/serving-block/fields.js';
import { firstKeyLine, isJsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { type ColumnSpec, columnOf, headerKey, type RowKind, rowKind } from './columns.js';
import { testNameConfig } from './test-name.js';

/** An array of `to_dict(orient='records')` rows, the first key the script's `Test name` column. */
const ARRAY_OF_ROWS = /^\s*\[\s*\{/;
const TEST_NAME = /"Test name"\s*:/;
/** A column every table of the script writes one of. */
const KNOWN_COLUMN = /"(?:GPU|Tput \(req\/s\)|# of req\.|Mean TTFT \(ms\)|Mean latency \(ms\)|Average latency \(s\))"\s*:/;

const CLIENTS: Readonly<Record<RowKind, string>> = { serving: 'vllm-bench-serve', latency: 'vllm-bench-latency', throughput: 'vllm-bench-throughput' };

/** Columns of a run's provenance and configuration a column of the file's own name must not fill. */
const PROTECTED = new Set(['run_id', 'source_file', 'source_line', 'source_format', 'label', 'config_sources', 'client', 'engine', 'gpu', 'gpus_on_machine']);

/** Text values of canonical columns; every other known column holds a number. */
const TEXT_COLUMNS = new Set(['model', 'dataset', 'dtype']);

/**
 * vLLM's performance benchmarks' summary, `benchmark_results.json` (README.md): one run per row,
 * the latency, throughput and serving tables' rows one after the other.
 */
export const grammar: Grammar = {
  id: 'vllm-perf-benchmarks-json',
  title: "vLLM performance benchmarks' summary JSON (benchmark_results.json)",
  detect({ head }) {
    if (!looksLikeJson(head) || !ARRAY_OF_ROWS.test(head)) return NOT_MINE;
    if (!TEST_NAME.test(head) || !KNOWN_COLUMN.test(head)) return NOT_MINE;
    return { score: 0.85, reason: "array of rows with vLLM's benchmark table columns (Test name, GPU, Tput (req/s), …)" };
  },
  parse(source, sink) {
    const unknown = new UnknownColumns();
    const runs = parseJsonDocuments(source, sink).flatMap((doc) => {
      if (!Array.isArray(doc.value)) {
        sink.report('json/not-a-result', { file: source.path, line: doc.line, column: 1 }, isJsonObject(doc.value) ? Object.keys(doc.value).slice(0, 6).join(', ') : typeof doc.value);
        return [];
      }
      return doc.value.flatMap((row) => toRun(row, doc.line, source, sink, unknown));
    });
    unknown.report(source, sink);
    return runs;
  },
};

/** One row of a table: a run, or nothing (a `json/not-a-result` info) when it holds no result. */
function toRun(row: JsonValue, docLine: number, source: TextSource, sink: DiagnosticSink, unknown: UnknownColumns): RunRecord[] {
  if (!isJsonObject(row)) return [];
  const lines = keyLines.get(row) ?? {};
  const line = firstKeyLine(row) ?? docLine;
  const at = (key: string): number => lines[key] ?? line;
  const headers = Object.keys(row);
  const keys = headers.map(headerKey);
  const testNameHeader = headers.find((h) => headerKey(h) === 'test name');
  const rawName = testNameHeader === undefined ? undefined : row[testNameHeader];
  const testName = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim() : null;
  const kind = rowKind(keys.filter((_k, i) => row[headers[i] as string] !== null), testName);
  const b = new FieldMapBuilder();
  let measured = false;
  for (const [i, header] of headers.entries()) {
    const key = keys[i] as string;
    const value = row[header];
    if (key === 'test name' || key === 'gpu' || value === null || value === undefined) continue;
    const spec = columnOf(key);
    if (spec !== null && (spec.kinds === undefined || (kind !== null && spec.kinds.includes(kind)))) {
      const v = known(spec, value);
      if (v !== undefined && b.set(spec.column, v, at(header)) && !CONFIG_COLUMNS.has(spec.column)) measured = true;
      continue;
    }
    const own = ownValue(value);
    if (own === undefined) continue;
    const column = ownColumn(header);
    unknown.add(header, at(header));
    b.set(column, own, at(header));
  }
  if (!measured) {
    sink.report('json/not-a-result', { file: source.path, line, column: 1 }, headers.slice(0, 6).join(', '));
    return [];
  }
  if (testNameHeader !== undefined && testName !== null) {
    for (const [column, value] of Object.entries(testNameConfig(testName, kind))) b.set(column, value, at(testNameHeader));
  }
  const gpuHeader = headers.find((h) => headerKey(h) === 'gpu');
  if (gpuHeader !== undefined) addGpu(b, row[gpuHeader], at(gpuHeader));
  if (kind !== null) b.set('client', CLIENTS[kind], line);
  b.set('engine', 'vllm', line);
  return [{ kind: 'run', at: { file: source.path, line, column: 1 }, label: testName, complete: true, fields: b.fields, lines: b.lines }];
}

/** Known columns that configure a run rather than measure it: a row of these alone is no result. */
const CONFIG_COLUMNS = new Set(['model', 'dataset', 'input_len', 'output_len', 'tp', 'pp', 'dtype', 'request_rate', 'max_concurrency']);

/** A known column's value: a number (scaled), `inf` as Infinity, a text column's text. */
function known(spec: ColumnSpec, value: JsonValue): FieldValue | undefined {
  if (TEXT_COLUMNS.has(spec.column)) {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    if (spec.column === 'dataset') return canonicalDataset(value, null) ?? undefined;
    return spec.column === 'dtype' ? value.trim().toLowerCase() : value.trim();
  }
  const n = numberOf(value);
  if (n === undefined) return undefined;
  return spec.scale === undefined ? n : scaleExact(n, spec.scale);
}

/** A number, or a number written as text (`"inf"`, `"16"`: the script keeps a command's `inf` as text). */
function numberOf(value: JsonValue): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\+?inf(?:inity)?$/i.test(text)) return Infinity;
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
}

/** The column of a header of no known meaning: its name in snake_case, `extra_` before a provenance or configuration column's. */
function ownColumn(header: string): string {
  const column = snakeCase(header);
  return PROTECTED.has(column) ? `extra_${column}` : column;
}

/** The value of a column of no known meaning: a number, text or flag as written. */
function ownValue(value: JsonValue): FieldValue | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

/**
 * The `GPU` column: the script turns `nvidia-smi`'s one line per GPU into `<lines>x<first line>`
 * (`8xNVIDIA H100 80GB HBM3`): the GPUs of the machine the benchmark ran on, not those the test
 * used (a TP 1 test on an 8-GPU machine says 8). Kept as `gpu` (the name) and `gpus_on_machine`.
 * A value the script did not turn (older scripts, the raw lines) is read the same way.
 */
function addGpu(b: FieldMapBuilder, value: JsonValue | undefined, line: number): void {
  if (typeof value !== 'string' || value.trim() === '') return;
  const lines = value.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length > 1) {
    b.set('gpu', lines[0], line);
    b.set('gpus_on_machine', lines.length, line);
    return;
  }
  const m = /^(\d+)x(.+)$/s.exec(value.trim());
  if (m && (m[2] ?? '').trim() !== '') {
    b.set('gpu', (m[2] ?? '').trim(), line);
    b.set('gpus_on_machine', Number(m[1]), line);
    return;
  }
  b.set('gpu', value.trim(), line);
}

/** The file's columns of no known meaning: one `table/unknown-metric` info for them all, at the first. */
class UnknownColumns {
  readonly #names = new Map<string, number>();

  add(header: string, line: number): void {
    if (!this.#names.has(header)) this.#names.set(header, line);
  }

  report(source: TextSource, sink: DiagnosticSink): void {
    if (this.#names.size === 0) return;
    const line = Math.min(...this.#names.values());
    const names = [...this.#names.keys()].map((h) => `${h} → ${ownColumn(h)}`);
    sink.report('table/unknown-metric', { file: source.path, line, column: 1 }, names.length, names.join(', '));
  }
}
