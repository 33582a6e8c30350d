import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { scaleExact } from '../../src/parse/values.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { isJsonObject, type JsonDocument, type JsonObject, keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { BY_KEY } from './metrics.js';
import { addRounds, savedRound } from './rounds.js';
import { CLIENT } from './runs.js';

/**
 * The `--log-file` JSONL (default `performance_metrics.jsonl`, appended to): one line per run,
 * `{"timestamp": …, "tag": …, "summary": {…}, "round": {"round_0": {…}, …}}` (`tag` since 2025,
 * `round` with `--enable-round-barrier`). The same columns as the printed summary, at full precision.
 */
export function savedRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  return parseJsonDocuments(source, sink).flatMap((doc) => {
    const run = savedRun(doc, source, sink);
    return run ? [run] : [];
  });
}

function savedRun(doc: JsonDocument, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const at = { file: source.path, line: doc.line, column: 1 };
  const obj = doc.value;
  if (!isJsonObject(obj) || !isJsonObject(obj.summary)) {
    sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : Array.isArray(obj) ? 'array' : typeof obj);
    return null;
  }
  const summary = obj.summary;
  const lines = keyLines.get(summary) ?? {};
  const lineOf = (key: string): number => lines[key] ?? doc.line;
  const b = new FieldMapBuilder();
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(summary)) {
    const number = typeof value === 'number' ? value : value === 'Infinity' || value === 'inf' ? Infinity : null;
    if (number === null) continue;
    if (key === 'total_requests') b.set('completed', number, lineOf(key));
    else if (key === 'request_rate') b.set('request_rate', number, lineOf(key));
    else {
      const metric = BY_KEY.get(key);
      if (!metric) unknown.push(key);
      b.set(metric?.column ?? key, scaleExact(number, metric?.scale ?? 1), lineOf(key));
    }
  }
  const roundLine = (keyLines.get(obj) ?? {}).round ?? doc.line;
  if (isJsonObject(obj.round)) addRounds(b, roundsOf(obj.round), roundLine, { ...at, line: roundLine }, sink);
  b.set('multi_turn', true, doc.line);
  b.set('client', CLIENT, doc.line);
  reportUnknownMetrics(unknown, sink, source.path, doc.line);
  const label = typeof obj.tag === 'string' && obj.tag !== '' ? obj.tag : null;
  return { kind: 'run', at, label, complete: true, fields: b.fields, lines: b.lines };
}

/** `round_0`, `round_1`, … in order of their number (turn 1 first); other keys are not rounds. */
function roundsOf(round: JsonObject): Map<string, number>[] {
  return Object.entries(round)
    .map(([key, value]) => ({ n: /^round_(\d+)$/.exec(key)?.[1], value }))
    .filter((r): r is { n: string; value: JsonObject } => r.n !== undefined && isJsonObject(r.value))
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((r) => savedRound(r.value));
}
