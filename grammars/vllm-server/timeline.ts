/**
 * Periodic lines → one timeline series. A stats line and the prefix-cache or speculative-decoding
 * line logged with it (same time stamp, different kind) become ONE entry; anything else starts a
 * new entry. Only the entry in progress is held as an object; the rest are columns.
 */
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { type TimelineRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import type { FieldValue, RelPath } from '../../src/core/types.js';
import type { StatsKind, StatsPartial } from './stats.js';

interface Pending {
  readonly line: number;
  readonly time: string | null;
  readonly kinds: Set<StatsKind>;
  readonly fields: Record<string, FieldValue>;
  readonly lines: Record<string, number>;
}

export class TimelineBuilder {
  readonly #file: RelPath;
  readonly #sink: DiagnosticSink;
  readonly #series = new TimelineSeriesBuilder();
  #pending: Pending | null = null;

  constructor(file: RelPath, sink: DiagnosticSink) {
    this.#file = file;
    this.#sink = sink;
  }

  add(partial: StatsPartial, line: number, time: string | null, extra: Record<string, FieldValue>): void {
    if (partial.bad.length > 0) {
      this.#sink.report('log/bad-stats-value', { file: this.#file, line, column: 1 }, partial.bad.join(', '));
    }
    if (isEmpty(partial.fields)) return;
    const p = this.#pending;
    const e = partial.fields.engine_index;
    const sameEngine = p !== null && (e === undefined || p.fields.engine_index === undefined || p.fields.engine_index === e);
    if (p !== null && time !== null && p.time === time && !p.kinds.has(partial.kind) && sameEngine) {
      p.kinds.add(partial.kind);
      this.#put(p, partial.fields, line);
      return;
    }
    this.#flush();
    const next: Pending = { line, time, kinds: new Set([partial.kind]), fields: {}, lines: {} };
    next.fields.engine = 'vllm';
    next.lines.engine = line;
    if (time !== null) {
      next.fields.time = time;
      next.lines.time = line;
    }
    this.#put(next, extra, line);
    this.#put(next, partial.fields, line);
    this.#pending = next;
  }

  finish(): TimelineRecord[] {
    this.#flush();
    return timelineRecords(this.#file, this.#series);
  }

  #put(p: Pending, fields: Record<string, FieldValue>, line: number): void {
    for (const k in fields) {
      if (!Object.hasOwn(fields, k) || Object.hasOwn(p.fields, k)) continue;
      p.fields[k] = fields[k] as FieldValue;
      p.lines[k] = line;
    }
  }

  #flush(): void {
    const p = this.#pending;
    if (p === null) return;
    this.#series.push({ at: { file: this.#file, line: p.line, column: 1 }, fields: p.fields, lines: p.lines });
    this.#pending = null;
  }
}

function isEmpty(fields: Record<string, FieldValue>): boolean {
  for (const k in fields) if (Object.hasOwn(fields, k)) return false;
  return true;
}
