/**
 * Periodic lines → one timeline series. A stats line and the prefix-cache, speculative- or
 * diffusion-decoding, KV-transfer or MFU line logged with it (same time stamp, different kind,
 * no other engine index) become ONE entry; an
 * aggregated line (`engine_index` `all`) never joins one engine's. Anything else starts a
 * new entry. Each value goes straight into the series' columns; only what decides whether the next
 * line joins the entry in progress is held.
 */
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { type TimelineRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import type { FieldValue, RelPath } from '../../src/core/types.js';
import type { StatsKind, StatsPartial } from './stats.js';

/** The entry in progress: what decides whether the next line joins it. Its values are in the series already. */
interface Pending {
  readonly time: string | null;
  readonly kinds: Set<StatsKind>;
  engineIndex: FieldValue | undefined;
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
    const sameEngine = p !== null && (e === undefined || p.engineIndex === undefined || p.engineIndex === e);
    if (p !== null && time !== null && p.time === time && !p.kinds.has(partial.kind) && sameEngine) {
      p.kinds.add(partial.kind);
      this.#put(p, partial.fields, line);
      return;
    }
    const next: Pending = { time, kinds: new Set([partial.kind]), engineIndex: undefined };
    this.#series.begin(line);
    this.#series.set('engine', 'vllm', line);
    if (time !== null) this.#series.set('time', time, line);
    this.#put(next, extra, line);
    this.#put(next, partial.fields, line);
    this.#pending = next;
  }

  finish(): TimelineRecord[] {
    this.#pending = null;
    return timelineRecords(this.#file, this.#series, this.#sink);
  }

  /** Sets the entry's values it does not have yet (the first of a column wins); a companion line's keep their own line. */
  #put(p: Pending, fields: Record<string, FieldValue>, line: number): void {
    for (const k in fields) {
      if (!Object.hasOwn(fields, k)) continue;
      const v = fields[k] as FieldValue;
      if (this.#series.set(k, v, line) && k === 'engine_index') p.engineIndex = v;
    }
  }
}

function isEmpty(fields: Record<string, FieldValue>): boolean {
  for (const k in fields) if (Object.hasOwn(fields, k)) return false;
  return true;
}
