import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { SourcePos } from '../../src/core/types.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { lookupTable } from '../../src/core/cells.js';
import { isJsonObject, type JsonObject, type JsonValue, linesOf } from './tree.js';

/**
 * A `Statistics` block's keys → benchlens' statistic prefixes (`mean_`, `median_`, `std_`, `pNN_`).
 * `p0p1` / `p99p9` are the 0.1st / 99.9th percentiles (vLLM's `p0.1_` / `p99.9_`); `p50` is the
 * median. `mode` has no column (a mode of a continuous latency says little).
 */
const STATS: Readonly<Record<string, string>> = lookupTable({
  mean: 'mean',
  stddev: 'std',
  min: 'min',
  max: 'max',
  p0p1: 'p0.1',
  p1: 'p1',
  p5: 'p5',
  p10: 'p10',
  p25: 'p25',
  p50: 'median',
  p75: 'p75',
  p90: 'p90',
  p95: 'p95',
  p99: 'p99',
  p99p9: 'p99.9',
});

/** The kinds of quantity a `Statistics` block holds, each with the factors of the units it may be in. */
export type Quantity = 'time_ms' | 'time_s' | 'gen_latency_ms' | 'count' | 'bytes' | 'token_rate' | 'request_rate' | 'media_rate';

/** Unit spellings (the schema's `Units`, plus the ones its converters and users also write) → factor to the column's unit. */
const UNITS: Readonly<Record<Quantity, Readonly<Record<string, number>>>> = {
  time_ms: lookupTable({ ms: 1, milliseconds: 1, millisecond: 1, s: 1000, sec: 1000, seconds: 1000, second: 1000, us: 0.001, 'µs': 0.001, microseconds: 0.001 }),
  time_s: lookupTable({ s: 1, sec: 1, seconds: 1, second: 1, ms: 0.001, milliseconds: 0.001, millisecond: 0.001 }),
  // a per-token latency written in plain time units is read as per token too
  gen_latency_ms: lookupTable({ 'ms/token': 1, 's/token': 1000, 'ms/tok': 1, 's/tok': 1000, ms: 1, s: 1000, seconds: 1000, milliseconds: 1 }),
  count: lookupTable({ count: 1, tokens: 1, token: 1, requests: 1, events: 1 }),
  // v0.2.1 `request_size`: the request body's size (`Units.BYTES`)
  bytes: lookupTable({ bytes: 1, byte: 1, b: 1 }),
  token_rate: lookupTable({ 'tokens/s': 1, 'tokens/sec': 1, 'tok/s': 1, 'token/s': 1 }),
  request_rate: lookupTable({ 'queries/s': 1, 'requests/s': 1, 'req/s': 1, 'queries/sec': 1, 'requests/sec': 1, 'sessions/s': 1 }),
  media_rate: lookupTable({ 'images/s': 1, 'videos/s': 1, 'audios/s': 1, 'items/s': 1 }),
};

/** What a `Statistics` block is read as: its column stem and suffix, its kind, and whether only the mean is kept. */
export interface StatSpec {
  /** `{stat}_{stem}{suffix}`, e.g. `ttft` + `_ms` → `p99_ttft_ms`; with `meanOnly`, the column itself. */
  readonly stem: string;
  readonly suffix: string;
  readonly quantity: Quantity;
  readonly meanOnly?: boolean;
}

/** Where a statistics reader writes, reports and takes its lines from. */
export interface StatContext {
  readonly builder: FieldMapBuilder;
  readonly sink: DiagnosticSink;
  readonly at: SourcePos;
}

/**
 * One `Statistics` block (`{units, mean, stddev, min, p0p1 … p99p9, max}`) → columns in the
 * schema's units. A block in units its quantity does not know is left out, with a warning.
 */
export function addStatistics(ctx: StatContext, block: JsonValue | undefined, spec: StatSpec, name: string, line: number): void {
  if (!isJsonObject(block)) return;
  const lines = linesOf(block);
  const units = typeof block.units === 'string' ? block.units.trim() : null;
  const factor = units === null ? undefined : UNITS[spec.quantity][units] ?? UNITS[spec.quantity][units.toLowerCase()];
  if (factor === undefined) {
    ctx.sink.report('report/unknown-unit', { ...ctx.at, line: lines.units ?? line }, name, units ?? '(none)');
    return;
  }
  if (spec.meanOnly) {
    ctx.builder.set(spec.stem, scaled(block.mean, factor), lines.mean ?? line);
    return;
  }
  for (const [key, value] of Object.entries(block)) {
    // the v0.1 converter wrote its 25th percentile as `P25`
    const stat = STATS[key.toLowerCase()];
    if (stat === undefined) continue;
    ctx.builder.set(`${stat}_${spec.stem}${spec.suffix}`, scaled(value, factor), lines[key] ?? line);
  }
}

/** Reads each named block of a parent object with its spec. */
export function addStatisticsOf(ctx: StatContext, parent: JsonValue | undefined, specs: Readonly<Record<string, StatSpec>>, line: number): void {
  if (!isJsonObject(parent)) return;
  const lines = linesOf(parent);
  for (const [key, spec] of Object.entries(specs)) {
    if (parent[key] !== undefined) addStatistics(ctx, parent[key], spec, key, lines[key] ?? line);
  }
}

/** A value in the column's unit, rounded off the binary noise a unit change adds (0.0368 s → 36.8 ms, not 36.800000000000004). */
function scaled(value: JsonValue | undefined, factor: number): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return factor === 1 ? value : Number((value * factor).toPrecision(15));
}

/** A finite number, else undefined. */
export function num(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A non-empty string, else undefined. */
export function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** An object, else an empty one. */
export function obj(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}
