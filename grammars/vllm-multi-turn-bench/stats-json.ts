import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { CLIENT, ROW_STEMS } from './runs.js';

/**
 * Keys of one `RequestStats` that only the `--stats-json-output` array holds together (the console
 * leaves both out of its table): with the array's opening bracket, what detection looks for.
 */
export const STATS_JSON_KEYS = ['"output_num_first_chunk_tokens"', '"approx_cached_percent"'] as const;

/** The first non-blank text opens an array whose first element is an object (or starts the next line). */
const ARRAY_START = /^\s*\[\s*(?:\{|$)/;

/** Is this head the start of a `--stats-json-output` file? */
export function isStatsJson(head: string): boolean {
  const start = head.search(/\S/);
  if (start < 0 || head[start] !== '[') return false;
  return STATS_JSON_KEYS.every((key) => head.includes(key));
}

/** Does this source's first non-blank line open a JSON array (the stats file, not a console log)? */
export function opensArray(lines: readonly string[]): boolean {
  const first = lines.find((line) => line.trim() !== '');
  return first !== undefined && ARRAY_START.test(first);
}

/** Per-request keys that are no statistic: the clock origin, the ids. */
const NOT_STATISTICS: ReadonlySet<string> = new Set(['start_time_ms', 'conversation_id', 'client_id']);
/** The `RequestStats` fields kept as `{stat}_<key>` (no canonical name); the two last are never printed by the console. */
const OWN_KEYS: ReadonlySet<string> = new Set(['input_num_turns', 'output_num_chunks', 'output_num_first_chunk_tokens', 'approx_cached_percent']);
/** What a run's timing needs from every sample. */
const TIMING_KEYS = ['start_time_ms', 'latency_ms'] as const;
/** Bad values reported one by one before the rest are only counted in the last report. */
const MAX_BAD_REPORTS = 5;

/**
 * `--stats-json-output FILE`: a JSON array of every successful request's `RequestStats` (the
 * benchmark's samples, warm-up step excluded). One run: what the console prints as its plain (or
 * 0 %) `Statistics summary`, recomputed as pandas computes it, at full precision (see README.md).
 */
export function statsJsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const runs: RunRecord[] = [];
  for (const doc of parseJsonDocuments(source, sink)) {
    const at = { file: source.path, line: doc.line, column: 1 };
    if (!Array.isArray(doc.value)) {
      sink.report('json/not-a-result', at, isJsonObject(doc.value) ? Object.keys(doc.value).slice(0, 6).join(', ') : typeof doc.value);
      continue;
    }
    // the requests before a cut are some of the run's: their statistics are not the run's (json/cut said where it was cut)
    if (doc.cut) continue;
    const run = statsRun(doc.value, doc.line, lastLineOf(source, doc.line), source, sink);
    if (run) runs.push(run);
  }
  return runs;
}

/** One sample: its timing and its numeric values by key. */
interface Sample {
  readonly start: number;
  readonly end: number;
  readonly values: ReadonlyMap<string, number>;
}

function statsRun(elements: readonly JsonValue[], line: number, lastLine: number, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const at = { file: source.path, line, column: 1 };
  const samples: Sample[] = [];
  let bad = 0;
  const reportBad = (key: string, value: unknown, where: number) => {
    if (bad++ < MAX_BAD_REPORTS) sink.report('table/bad-cell', { file: source.path, line: where, column: 1 }, key, JSON.stringify(value) ?? String(value));
  };
  for (const element of elements) {
    if (!isJsonObject(element)) {
      reportBad('request', element, line);
      continue;
    }
    const sample = sampleOf(element, line, reportBad);
    if (sample) samples.push(sample);
  }
  if (samples.length === 0) {
    sink.report('table/no-rows', at, 'stats JSON');
    return null;
  }
  const b = new FieldMapBuilder();
  // the console's order: by start time (a stable sort; the file holds them as collected)
  const ordered = [...samples].sort((x, y) => x.start - y.start);
  const first = ordered[0] as Sample;
  const last = ordered[ordered.length - 1] as Sample;
  // the end of the last request to start, as printed (not the latest end)
  const runtimeSec = (last.end - first.start) / 1000;
  b.set('duration_s', runtimeSec, line);
  if (runtimeSec > 0) b.set('request_throughput', samples.length / runtimeSec, line);
  b.set('completed', samples.length, line);
  const percentiles = percentilesFor(samples.length);
  const unknown: string[] = [];
  for (const key of statisticKeys(samples)) {
    const stem = ROW_STEMS[key] ?? key;
    if (!ROW_STEMS[key] && !OWN_KEYS.has(key)) unknown.push(key);
    const values = samples.flatMap((s) => {
      const v = s.values.get(key);
      return v === undefined ? [] : [v];
    });
    for (const [stat, value] of describe(values, percentiles)) if (Number.isFinite(value)) b.set(`${stat}_${stem}`, value, line);
  }
  b.set('multi_turn', true, line);
  b.set('client', CLIENT, line);
  reportUnknownMetrics(unknown, sink, source.path, line);
  return { kind: 'run', at, label: null, complete: true, fields: b.fields, lines: b.lines, lastLine };
}

/** A request's values; null (reported) when it lacks the start or latency its run's timing needs. */
function sampleOf(obj: JsonObject, line: number, reportBad: (key: string, value: unknown, where: number) => void): Sample | null {
  const lines = keyLines.get(obj) ?? {};
  const values = new Map<string, number>();
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'conversation_id' || key === 'client_id') continue;
    if (typeof value === 'number' && Number.isFinite(value)) values.set(key, value);
    else if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') reportBad(key, value, lines[key] ?? line);
  }
  for (const key of TIMING_KEYS) {
    if (!values.has(key)) {
      if (!Object.hasOwn(obj, key)) reportBad(key, null, line);
      return null;
    }
  }
  const start = values.get('start_time_ms') as number;
  return { start, end: start + (values.get('latency_ms') as number), values };
}

/** The statistic rows, in the order of their first appearance (RequestStats' field order). */
function statisticKeys(samples: readonly Sample[]): string[] {
  const keys = new Set<string>();
  for (const s of samples) for (const key of s.values.keys()) if (!NOT_STATISTICS.has(key)) keys.add(key);
  return [...keys];
}

/** The percentiles the script asks pandas for: more of them with more samples. */
function percentilesFor(n: number): number[] {
  const ps = [0.25, 0.5, 0.75, 0.9];
  if (n >= 100) ps.push(0.99);
  if (n >= 1000) ps.push(0.999);
  if (n >= 10000) ps.push(0.9999);
  return ps;
}

/** `0.5` → `median`, `0.25` → `p25`, `0.999` → `p99.9`: the console grammar's names. */
function percentileName(p: number): string {
  if (p === 0.5) return 'median';
  return `p${Number((p * 100).toFixed(2))}`;
}

/**
 * pandas' `describe(percentiles)` of one column: mean, std (n − 1; none for one value), min, the
 * percentiles (numpy's linear method), max. Count is the run's `completed`.
 */
function describe(values: readonly number[], percentiles: readonly number[]): [string, number][] {
  const n = values.length;
  if (n === 0) return [];
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  const sorted = [...values].sort((a, b) => a - b);
  const out: [string, number][] = [['mean', mean]];
  if (n > 1) out.push(['std', Math.sqrt(squares / (n - 1))]);
  out.push(['min', sorted[0] as number]);
  // pandas asks numpy for the percentile `p × 100`, which numpy divides by 100 again: the same float as there
  for (const p of percentiles) out.push([percentileName(p), quantile(sorted, (p * 100) / 100)]);
  out.push(['max', sorted[n - 1] as number]);
  return out;
}

/** numpy's linear quantile of sorted values: the virtual index (n − 1)·q, interpolated as numpy does. */
function quantile(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  // numpy's virtual index for its linear method, (n − 1)·q, computed in numpy's order (the last bits differ otherwise)
  const index = n * q + (1 - q) - 1;
  const below = Math.min(Math.max(Math.floor(index), 0), n - 1);
  const above = Math.min(below + 1, n - 1);
  const t = index - Math.floor(index);
  const a = sorted[below] as number;
  const b = sorted[above] as number;
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

/** The line of the document's last non-blank line (its closing bracket). */
function lastLineOf(source: TextSource, from: number): number {
  for (let i = source.lines.length - 1; i >= from; i--) if ((source.lines[i] ?? '').trim() !== '') return i + 1;
  return from;
}
