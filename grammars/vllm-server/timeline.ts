/**
 * Periodic lines → one timeline series. A stats line and the prefix-cache, speculative- or
 * diffusion-decoding, KV-transfer, CUDA-graph or MFU line logged with it (same time stamp,
 * different kind, no other engine index) become ONE entry; an
 * aggregated line (`engine_index` `all`) never joins one engine's. Anything else starts a
 * new entry. Each value goes straight into the series' columns; only what decides whether the next
 * line joins the entry in progress is held.
 *
 * An engine step's `Iteration(n)` line is an entry of its own: nothing joins it and it joins
 * nothing. Its engine core prints it in another process than the stats logger, so one may come
 * between a stats line and the lines that join it: while such an entry is open (same time stamp),
 * iteration entries wait in a short queue and are written after it, in line order still.
 */
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { type TimelineRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import { withInferredYearsGiven } from '../../src/core/timeline-series.js';
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
  /** Iteration entries held while the entry in progress may still be joined. */
  #queue: Queued[] = [];

  constructor(file: RelPath, sink: DiagnosticSink) {
    this.#file = file;
    this.#sink = sink;
  }

  add(partial: StatsPartial, line: number, time: string | null, extra: Record<string, FieldValue>): void {
    if (partial.bad.length > 0) {
      this.#sink.report('log/bad-stats-value', { file: this.#file, line, column: 1 }, partial.bad.join(', '));
    }
    if (isEmpty(partial.fields)) return;
    if (partial.kind === 'iteration') {
      const open = this.#pending;
      if (open !== null && time !== null && open.time === time && this.#queue.length < MAX_QUEUED) this.#queue.push({ fields: partial.fields, line, time, extra });
      else {
        this.#flush();
        this.#pending = null;
        this.#entry(partial.fields, line, time, extra);
      }
      return;
    }
    const p = this.#pending;
    const e = partial.fields.engine_index;
    const sameEngine = p !== null && (e === undefined || p.engineIndex === undefined || p.engineIndex === e);
    if (p !== null && time !== null && p.time === time && !p.kinds.has(partial.kind) && sameEngine) {
      p.kinds.add(partial.kind);
      this.#put(p, partial.fields, line);
      return;
    }
    this.#flush();
    this.#pending = this.#entry(partial.fields, line, time, extra, partial.kind);
  }

  /** The series; `inferredYears`: how many years the base year (2000) of the `time_year_inferred` stamps is off, when the log said. */
  finish(inferredYears: number | null = null): TimelineRecord[] {
    this.#flush();
    this.#pending = null;
    const records = timelineRecords(this.#file, this.#series, this.#sink);
    return inferredYears === null ? records : records.map((r) => ({ ...r, series: withInferredYearsGiven(r.series, inferredYears) }));
  }

  /** Begins an entry and writes its values. */
  #entry(fields: Record<string, FieldValue>, line: number, time: string | null, extra: Record<string, FieldValue>, kind?: StatsKind): Pending {
    const next: Pending = { time, kinds: new Set(kind === undefined ? [] : [kind]), engineIndex: undefined };
    this.#series.begin(line);
    this.#series.set('engine', 'vllm', line);
    if (time !== null) this.#series.set('time', time, line);
    this.#put(next, extra, line);
    this.#put(next, fields, line);
    return next;
  }

  /** Writes the iteration entries held back. */
  #flush(): void {
    if (this.#queue.length === 0) return;
    for (const q of this.#queue) this.#entry(q.fields, q.line, q.time, q.extra);
    this.#queue = [];
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

/** Iteration entries held at most (engine steps within one second of a stats line). */
const MAX_QUEUED = 512;

interface Queued {
  readonly fields: Record<string, FieldValue>;
  readonly line: number;
  readonly time: string;
  readonly extra: Record<string, FieldValue>;
}

function isEmpty(fields: Record<string, FieldValue>): boolean {
  for (const k in fields) if (Object.hasOwn(fields, k)) return false;
  return true;
}
