import type { FieldMapBuilder } from '../../src/core/records.js';
import { lookupTable } from '../../src/core/cells.js';
import { scaleExact } from '../../src/parse/values.js';
import { splitMetricLabel } from '../_shared/perf-metrics/index.js';

/**
 * AIPerf's client-side speculative-decoding metrics (2026, ai-dynamo/aiperf
 * `src/aiperf/metrics/types/spec_decode_metrics.py`), read from the per-request acceptance stats
 * the engine returns. Two kinds share names with the canonical columns but not their definition:
 * - run-level ratios over the whole run's tokens (`Token-Weighted Acceptance Length` = 1 +
 *   accepted / verify steps, `Overall Draft Acceptance Rate` = accepted / drafted, in %) and the
 *   run's totals (verify steps, accepted and drafted tokens): the canonical `spec_*` columns;
 * - per-request means with a distribution (`Acceptance Length`, `Draft Acceptance Rate`, …): each
 *   request weighs the same whatever its length, so they keep AIPerf's tag as their name
 *   (`spec_decode_acceptance_length`, `p99_spec_decode_acceptance_length`).
 * Shared by the three GenAI-Perf / AIPerf grammars: JSON keys are the tags, the CSV export and the
 * console print the headers (`Token-Weighted Acceptance Length (ratio)`).
 */
interface RunLevel {
  readonly column: string;
  readonly percent?: boolean;
  readonly count?: boolean;
}

const RUN_LEVEL: Readonly<Record<string, RunLevel>> = lookupTable({
  'token-weighted acceptance length': { column: 'spec_acceptance_length' },
  'spec decode token weighted acceptance length': { column: 'spec_acceptance_length' },
  'overall draft acceptance rate': { column: 'spec_acceptance_rate', percent: true },
  'spec decode overall draft acceptance rate': { column: 'spec_acceptance_rate', percent: true },
  'total spec decode steps': { column: 'spec_num_drafts', count: true },
  'total accepted draft tokens': { column: 'spec_accepted_tokens', count: true },
  'total draft tokens': { column: 'spec_draft_tokens', count: true },
});

interface PerRequest {
  readonly stem: string;
  readonly percent?: boolean;
  /** A header older AIPerf also printed for its run-level value (avg only): per-request only with a distribution. */
  readonly ambiguous?: boolean;
}

const PER_REQUEST: Readonly<Record<string, PerRequest>> = lookupTable({
  'acceptance length': { stem: 'spec_decode_acceptance_length', ambiguous: true },
  'spec decode acceptance length': { stem: 'spec_decode_acceptance_length' },
  'draft acceptance rate': { stem: 'spec_decode_draft_acceptance_rate', percent: true, ambiguous: true },
  'spec decode draft acceptance rate': { stem: 'spec_decode_draft_acceptance_rate', percent: true },
  'accepted per verified': { stem: 'spec_decode_accepted_per_verified' },
  'spec decode accepted per verified': { stem: 'spec_decode_accepted_per_verified' },
  'spec decode steps': { stem: 'spec_decode_steps' },
  'accepted draft tokens': { stem: 'spec_decode_accepted_draft_tokens' },
  'spec decode accepted draft tokens': { stem: 'spec_decode_accepted_draft_tokens' },
  'draft tokens': { stem: 'spec_decode_draft_tokens' },
  'spec decode draft tokens': { stem: 'spec_decode_draft_tokens' },
});

type Stats = ReadonlyArray<readonly [stat: string, value: number | null]>;

/**
 * Sets the columns of one AIPerf speculative-decoding metric (`label` with its unit, as the
 * export or console names it); false when `label` is none of them (the shared table reads it).
 */
export function addAiperfSpecDecodeRow(builder: FieldMapBuilder, label: string, stats: Stats, line: number): boolean {
  const { name, unit } = splitMetricLabel(label);
  const runLevel = RUN_LEVEL[name];
  if (runLevel) {
    const mean = stats.find(([stat]) => stat === 'mean')?.[1];
    if (mean === undefined || mean === null) return true;
    const value = runLevel.count ? Math.round(mean) : runLevel.percent && unit !== 'ratio' ? scaleExact(mean, 0.01) : mean;
    builder.set(runLevel.column, value, line);
    return true;
  }
  const perRequest = PER_REQUEST[name];
  // older AIPerf printed `Acceptance Length (tokens)` with its average alone: the run's value
  if (!perRequest || (perRequest.ambiguous && unit !== 'ratio' && !stats.some(([stat, v]) => stat !== 'mean' && v !== null))) return false;
  for (const [stat, value] of stats) {
    if (value === null) continue;
    const column = stat === 'mean' ? perRequest.stem : `${stat}_${perRequest.stem}`;
    builder.set(column, perRequest.percent ? scaleExact(value, 0.01) : value, line);
  }
  return true;
}
