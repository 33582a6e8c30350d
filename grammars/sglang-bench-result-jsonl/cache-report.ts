import { lookupTable } from '../../src/core/cells.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { percentToFraction } from '../../src/parse/values.js';
import { type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * `--cache-report` writes a `cache_report` object into the run's line (serving.py, 2026): the
 * totals the text block's `Cache Hit Details` section prints, under the same columns
 * (grammars/sglang-bench-serving/cache-report.ts). Tier counts are null when the server gave no
 * breakdown (absent here). The tiers' shares of the cached tokens are printed in the text only;
 * they are not computed here (benchlens parses values, it derives none in a grammar).
 */
const CACHE_REPORT_KEYS: Readonly<Record<string, string>> = lookupTable({
  total_prompt_tokens: 'total_prompt_tokens',
  total_cached_tokens: 'total_cached_tokens',
  device_cached_tokens: 'cached_tokens_device',
  host_cached_tokens: 'cached_tokens_host',
  storage_cached_tokens: 'cached_tokens_storage',
  storage_backend: 'cache_storage_backend',
});

/** `round(hit_rate, 2)` of a percent. */
const HIT_RATE_PERCENT = 'cache_hit_rate_pct';

export function addCacheReport(builder: FieldMapBuilder, report: { readonly [key: string]: JsonValue }, line: number): void {
  const lines = keyLines.get(report) ?? {};
  for (const key of Object.keys(report)) {
    const value = report[key];
    const at = lines[key] ?? line;
    if (key === HIT_RATE_PERCENT) {
      if (typeof value === 'number') builder.set('prefix_cache_hit_rate', percentToFraction(value), at);
      continue;
    }
    // a key added later is kept under its own name, as the line's own unknown keys are
    const column = CACHE_REPORT_KEYS[key] ?? `cache_report_${key}`;
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') builder.set(column, value, at);
  }
}
