import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { percentToFraction } from '../../src/parse/values.js';
import { labelKey, type BlockEntry } from '../_shared/serving-block/index.js';
import { readBlockNumber } from '../_shared/serving-block/splices.js';
import { lookupTable } from '../../src/core/cells.js';

/**
 * `bench_serving --cache-report` (python/sglang/benchmark/serving.py, 2026) prints, last in the
 * block, a `Cache Hit Details` section:
 *
 *     Total prompt tokens:     131072
 *     Total cached tokens:     65536
 *       Device:                40960        ← tokens, per HiCache tier (only when the server
 *       Host:                  16384          reported a breakdown and something was cached)
 *       Storage (hf3fs):       8192         ← only when storage served any; the backend named
 *     Cache hit rate:          50.0%        ← cached / prompt
 *       Device:                62.5%        ← each tier's share of the cached tokens,
 *       Host:                  25.0%          not a hit rate of its own
 *       Storage (hf3fs):       12.5%
 *
 * The indentation is gone by the time a line reaches us (embedding is stripped), so a tier line is
 * told apart by its value: a percent is a share, a plain number a count. Every line prints its
 * unit, so a line read alone is never mistaken whatever the order it was pasted in.
 */
const SECTION = 'cache hit details';
const HIT_RATE = 'cache hit rate';

const TOTALS: Readonly<Record<string, string>> = lookupTable({
  'total prompt tokens': 'total_prompt_tokens',
  'total cached tokens': 'total_cached_tokens',
});

/** A tier's label key (`device`, `host`, `storage`, `storage (hf3fs)`) → the tier. */
const TIER = /^(device|host|storage)(?: \(.+\))?$/;
/** The storage backend as printed in the label (its key is lower case). */
const STORAGE_BACKEND = /^Storage\s*\((.+)\)$/i;

/**
 * The block's lines that belong to its cache report, in order, and the others. The report starts at
 * its section rule or, when a paste lost that rule, at its first own label (`Total prompt tokens`,
 * `Total cached tokens`, `Cache hit rate`); a bare `Device:` / `Host:` counts only after that start.
 */
export function splitCacheReport(entries: readonly BlockEntry[]): { report: BlockEntry[]; rest: BlockEntry[] } {
  const report: BlockEntry[] = [];
  const rest: BlockEntry[] = [];
  let started = false;
  for (const e of entries) {
    const key = labelKey(e.label);
    const inSection = labelKey(e.section ?? '') === SECTION;
    const ownLabel = TOTALS[key] !== undefined || key === HIT_RATE;
    started ||= inSection || ownLabel;
    (started && (inSection || ownLabel || TIER.test(key)) ? report : rest).push(e);
  }
  return { report, rest };
}

/**
 * Reads the cache report's lines into columns: `total_prompt_tokens`, `total_cached_tokens`,
 * `prefix_cache_hit_rate` (fraction), `cached_tokens_{device,host,storage}` (tokens),
 * `cached_tokens_{device,host,storage}_share` (fractions of the cached tokens),
 * `cache_storage_backend`. Returns the lines it does not know, for the shared reader to report.
 */
export function addCacheReport(entries: readonly BlockEntry[], builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): BlockEntry[] {
  const unknown: BlockEntry[] = [];
  for (const e of entries) {
    const key = labelKey(e.label);
    const target = cacheColumn(key, e.value);
    if (target === null) {
      unknown.push(e);
      continue;
    }
    const at = { file, line: e.line, column: 1 };
    const v = readBlockNumber(e.value);
    if (!v.ok) {
      sink.report('block/bad-value', at, e.label, e.value);
      continue;
    }
    if (v.rest !== '' && v.rest !== '%') sink.report('block/annotated-value', at, e.label, v.rest);
    const value = v.value !== null && target.percent ? percentToFraction(v.value) : v.value;
    if (!builder.set(target.column, value, e.line)) sink.report('block/duplicate-label', at, e.label);
    // from the label, not its key: the backend's name as printed (the key is lower case)
    const backend = STORAGE_BACKEND.exec(e.label)?.[1];
    if (backend !== undefined) builder.set('cache_storage_backend', backend, e.line);
  }
  return unknown;
}

interface CacheColumn {
  readonly column: string;
  /** The value is a percent, stored as a fraction. */
  readonly percent: boolean;
}

function cacheColumn(key: string, value: string): CacheColumn | null {
  const total = TOTALS[key];
  if (total !== undefined) return { column: total, percent: false };
  // always printed as `{:.1f}%`
  if (key === HIT_RATE) return { column: 'prefix_cache_hit_rate', percent: true };
  const tier = TIER.exec(key)?.[1];
  if (tier === undefined) return null;
  const share = value.trimEnd().endsWith('%');
  return { column: share ? `cached_tokens_${tier}_share` : `cached_tokens_${tier}`, percent: share };
}
