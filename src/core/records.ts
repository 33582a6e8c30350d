import { setCell } from './cells.js';
import { seriesLine, type TimelineSeries } from './timeline-series.js';
import { MAX_SERIES_COLUMNS, type TimelineSeriesBuilder } from './timeline-series-builder.js';
import type { DiagnosticSink } from './diagnostic.js';
import type { FieldValue, RelPath, SourcePos } from './types.js';

/**
 * What grammars produce. One shared, discriminated union rather than per-grammar record types:
 * every format lands in the same canonical columns (see docs/architecture.md for why).
 * `fields` keys are canonical column names (schema.md); `lines` gives the 1-based source line of
 * each field, so every value has file:line provenance.
 */
export interface FieldMap {
  readonly fields: Record<string, FieldValue>;
  readonly lines: Record<string, number>;
}

/** One load-generator measurement: a result block, a result JSON object, a JSONL line, a report. */
export interface RunRecord extends FieldMap {
  readonly kind: 'run';
  readonly at: SourcePos;
  /** Human label from the document context (comment line or heading above the block). */
  readonly label: string | null;
  /** False when the block was cut short (no footer); a diagnostic says so. */
  readonly complete: boolean;
  /** The line of its last value, kept when its per-field lines are dropped (see runLastLine). */
  readonly lastLine?: number;
  /** The file whose excerpt the run was read from, as a `tail` header or grep's prefix names it (src/ingest/excerpts.ts). */
  readonly excerptOf?: string;
}

/** The line of a run's last value: where its block ends (a result file's values are all on its one line). */
export function runLastLine(run: RunRecord): number {
  if (run.lastLine !== undefined) return run.lastLine;
  let last = run.at.line;
  for (const k in run.lines) last = Math.max(last, run.lines[k] as number);
  return last;
}

/** Configuration facts: a launch command, a benchmark command, a server-log argument dump. */
export interface ConfigRecord extends FieldMap {
  readonly kind: 'config';
  readonly at: SourcePos;
  /**
   * `sweep`: the overrides a sweep tool ran a combination with (`vllm bench sweep`'s failure records).
   * `bench-config`: a load generator's own configuration file beside its results (inference-perf's
   * `config.yaml`): its `client` field names the tool whose runs it describes, in its folder and below.
   * `bench-metrics`: a load generator's file of more results of a run beside the run's own file
   * (EvalScope's `benchmark_percentile.json`): fills the empty result cells of its `client`'s one
   * run in the same folder.
   */
  readonly origin: 'launch-command' | 'bench-command' | 'server-log' | 'manifest' | 'sweep' | 'bench-config' | 'bench-metrics';
}

/** The periodic server stats lines of one file (schema.md §2), by column (timeline-series.ts). */
export interface TimelineRecord {
  readonly kind: 'timeline';
  /** The first stats line. */
  readonly at: SourcePos;
  readonly series: TimelineSeries;
  /**
   * The benchmark (its `client`) whose in-process engine logged these stats, when no server did
   * (trtllm-bench's `--iteration_log`): they are the statistics of that benchmark's run beside
   * them, never a server's that other runs could have used.
   */
  readonly inProcessOf?: string;
}

/** The record of a file's stats lines: none when it had none. Says what the builder left out. */
export function timelineRecords(file: RelPath, builder: TimelineSeriesBuilder, sink: DiagnosticSink, inProcessOf?: string): TimelineRecord[] {
  const dropped = builder.dropped;
  if (dropped) sink.report('log/too-many-stats', { file, line: dropped.line, column: 1 }, dropped.count, MAX_SERIES_COLUMNS, dropped.column);
  if (builder.length === 0) return [];
  const series = builder.finish();
  const at = { file, line: seriesLine(series, 0), column: 1 };
  return [inProcessOf === undefined ? { kind: 'timeline', at, series } : { kind: 'timeline', at, series, inProcessOf }];
}

/** A crash or failed start found in a log. */
export interface FailureRecord {
  readonly kind: 'failure';
  readonly at: SourcePos;
  readonly exception: string;
  readonly message: string;
}

export type BenchRecord = RunRecord | ConfigRecord | TimelineRecord | FailureRecord;

/** Where a reader writes the values of one record or entry: the first value of a column wins. */
export interface FieldWriter {
  /** Sets a field if it is not set yet; returns false when it was already there. */
  set(column: string, value: FieldValue | undefined, line: number): boolean;
}

/**
 * `fields` and `lines` copied into compact objects. A builder sets them key by key, and V8 keeps
 * an object given more than a dozen computed keys as a hash table: some 2 KB for a result block's
 * 25 values, against about 700 bytes for a copy (a spread builds its object in V8's fast layout),
 * and the copy costs less than it saves (the tables die young). Every record is compacted as it
 * leaves its grammar (src/pipeline/parsed.ts); a grammar that holds tens of thousands before it
 * returns (a sweep log of result blocks) compacts each as it makes it.
 */
export function compactFieldMap(map: FieldMap): FieldMap {
  return { fields: { ...map.fields }, lines: { ...map.lines } };
}

/** Builds a FieldMap incrementally: first value wins, the line of each value is kept. */
export class FieldMapBuilder implements FieldWriter {
  readonly fields: Record<string, FieldValue> = {};
  readonly lines: Record<string, number> = {};

  /** Sets a field if it is not set yet; returns false when it was already there. */
  set(column: string, value: FieldValue | undefined, line: number): boolean {
    if (value === undefined) return true;
    if (Object.hasOwn(this.fields, column)) return false;
    setCell(this.fields, column, value);
    setCell(this.lines, column, line);
    return true;
  }

  has(column: string): boolean {
    return Object.hasOwn(this.fields, column);
  }

  get size(): number {
    return Object.keys(this.fields).length;
  }
}
