import type { TopLevelSpec } from 'vega-lite';
import type { FieldValue } from '../core/types.js';
import type { Crowding } from './legibility.js';

/** A row of the runs (schema.md §1), comparison (§3) or timeline (§2) table. */
export type Row = Readonly<Record<string, FieldValue | undefined>>;

/** Which table a chart reads. */
export type ChartInput = 'runs' | 'comparison' | 'timeline';

/** Options every chart understands; each chart uses the ones that make sense for it. */
export interface ChartOptions {
  readonly x?: string;
  readonly y?: string;
  readonly color?: string;
  readonly facet?: string;
  /** Base metric, e.g. `output_throughput`; comparison charts read `speedup_<metric>`. */
  readonly metric?: string;
  /** `column=value` pairs naming the baseline runs (drawn as reference where a chart can). */
  readonly baseline?: Readonly<Record<string, string>>;
  readonly title?: string;
  /** Second line under the title, e.g. engine versions and models. */
  readonly caption?: string;
  /**
   * The rows of the whole chart this one is a part of (a report draws a crowded chart in parts):
   * the speedup scale spans theirs, so the same speedup has the same colour or height in every part.
   */
  readonly scaleRows?: readonly Row[];
  /** The runs table, for a chart of another table that names runs by `run_id` (the server timeline's run stretches). */
  readonly runs?: readonly Row[];
  /**
   * The runs table's configuration columns (buildRuns): one that differs between runs a chart's
   * own keys name alike (prefix caching on and off, a scheduler flag) tells its lines and panels
   * apart too (series.ts, configurationKeys).
   */
  readonly configColumns?: readonly string[];
}

/**
 * A spec, or the reason the rows cannot make this chart (e.g. no speculative decoding runs). A spec
 * with `crowded` holds more than can be read (charts/legibility.ts): drawn only when asked for, or
 * in at least `minParts` parts (charts/parts.ts).
 */
export type ChartResult = { readonly ok: true; readonly spec: TopLevelSpec; readonly crowded?: string; readonly minParts?: number } | { readonly ok: false; readonly reason: string };

/** One entry of the chart catalogue. */
export interface ChartDef {
  readonly id: string;
  readonly title: string;
  readonly input: ChartInput;
  /** How to read the chart, shown under it in a report. */
  readonly note?: string;
  readonly build: (rows: readonly Row[], options: ChartOptions) => ChartResult;
}

export function chartOk(spec: TopLevelSpec, crowding?: Crowding): ChartResult {
  return crowding === undefined ? { ok: true, spec } : { ok: true, spec, crowded: crowding.reason, minParts: crowding.minParts };
}

export function chartSkip(reason: string): ChartResult {
  return { ok: false, reason };
}
