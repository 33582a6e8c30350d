import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { FieldMapBuilder } from '../../src/core/records.js';
import type { TimelineEntry } from '../../src/core/timeline-series.js';
import type { SourcePos } from '../../src/core/types.js';
import { parsePyValue } from '../../src/parse/python-repr.js';
import { percentToFraction, readNumber, scaleExact } from '../../src/parse/values.js';

/** Iteration-line keys with a timeline column of their own (schema.md §2). */
const RENAMED: Readonly<Record<string, string>> = Object.freeze({
  num_scheduled_requests: 'running',
});

/**
 * One per-iteration log line → one timeline entry: `time` from its `timestamp` (else the logger
 * prefix), `running` = num_scheduled_requests (else the states' request counts), `iter_latency_ms`
 * from `elapsed_time` (seconds), every `states` entry and other key as an extra column.
 */
export function iterEntry(pairs: readonly [string, string][], at: SourcePos, prefixTime: string | null, sink: DiagnosticSink): TimelineEntry {
  const b = new FieldMapBuilder();
  const line = at.line;
  b.set('engine', 'trtllm', line);
  const bad: string[] = [];
  for (const [key, raw] of pairs) {
    if (key === 'timestamp') {
      const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)/.exec(raw);
      if (m) b.set('time', `${m[1]}T${m[2]}`, line);
      else bad.push(key);
    } else if (key === 'states') {
      addStates(raw, b, line);
    } else if (key === 'currank_total_requests') {
      const m = /^(\d+)\/(\d+)$/.exec(raw);
      if (m) {
        b.set('currank_requests', Number(m[1]), line);
        b.set('total_requests', Number(m[2]), line);
      } else bad.push(key);
    } else {
      const v = readNumber(raw);
      if (!v.ok || v.value === null) {
        bad.push(key);
        continue;
      }
      if (key === 'elapsed_time') b.set('iter_latency_ms', scaleExact(v.value, v.rest === 'ms' ? 1 : 1000), line);
      else if (key === 'kv_cache_util') b.set('kv_cache_usage', v.value > 1 || v.rest === '%' ? percentToFraction(v.value) : v.value, line);
      else b.set(RENAMED[key] ?? key, v.value, line);
    }
  }
  if (!b.has('time') && prefixTime !== null) b.set('time', prefixTime, line);
  if (!b.has('running')) {
    const ctx = b.fields.num_ctx_requests;
    const gen = b.fields.num_generation_requests;
    if (typeof ctx === 'number' && typeof gen === 'number') b.set('running', ctx + gen, line);
  }
  if (bad.length > 0) sink.report('log/bad-stats-value', at, bad.join(', '));
  return { at, fields: b.fields, lines: b.lines };
}

function addStates(raw: string, b: FieldMapBuilder, line: number): void {
  const states = parsePyValue(raw);
  if (states === null || typeof states !== 'object' || Array.isArray(states)) return;
  for (const [k, v] of Object.entries(states)) {
    if (typeof v === 'number') b.set(k.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase(), v, line);
  }
}
