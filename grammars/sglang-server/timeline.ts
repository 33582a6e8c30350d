import type { FieldWriter } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { percentToFraction, readNumber } from '../../src/parse/values.js';
import type { StatsLine } from './stats-parser.js';
import { lookupTable } from '../../src/core/cells.js';

/** Batch-line keys (every era) → timeline columns (schema.md §2); usage values are fractions already. */
const KEYS: Readonly<Record<string, string>> = lookupTable({
  '#running-req': 'running',
  '#running_req': 'running',
  '#queue-req': 'waiting',
  '#remaining_req': 'waiting',
  'token usage': 'kv_cache_usage',
  'full token usage': 'kv_cache_usage',
  'swa token usage': 'swa_token_usage',
  'mamba usage': 'mamba_usage',
  'mamba num': 'mamba_num',
  '#token': 'num_tokens',
  '#full token': 'num_full_tokens',
  '#swa token': 'num_swa_tokens',
  'gen throughput (token/s)': 'gen_throughput',
  'input throughput (token/s)': 'prompt_throughput',
  'accept len': 'spec_acceptance_length',
  'accept rate': 'spec_acceptance_rate',
  '#new-seq': 'new_seqs',
  '#seq': 'new_seqs',
  '#new-token': 'new_tokens',
  '#new_token': 'new_tokens',
  '#cached-token': 'cached_tokens',
  '#cached_token': 'cached_tokens',
  '#pending-token': 'pending_tokens',
  'cuda graph': 'graph',
  'npu graph': 'graph',
  'cpu graph': 'graph',
  'largest-len': 'largest_len',
  'pre-allocated usage': 'preallocated_usage',
  '#prealloc-req': 'prealloc_req',
  '#inflight-req': 'inflight_req',
  '#transfer-req': 'transfer_req',
  '#retracted-req': 'retracted_req',
});

/** Keys printed as percents (`tree_cache_hit_rate: 80.83%`, `cache hit rate: 12.50%`). */
const PERCENT_KEYS = new Set(['tree_cache_hit_rate', 'cache hit rate']);

/**
 * One batch statistics line, written as one timeline entry into `out` (a series builder whose
 * entry was begun at `line`: a stats-dense log makes no object per line).
 */
export function writeStatsEntry(out: FieldWriter, stats: StatsLine, line: number, time: string | null, ranks: Readonly<Record<string, number>>): void {
  out.set('engine', 'sglang', line);
  if (time) out.set('time', time, line);
  const head = stats.head?.toLowerCase() ?? '';
  if (head !== '') out.set('batch', head.startsWith('decode') ? 'decode' : 'prefill', line);
  const iter = /\[(\d+)\]/.exec(head);
  if (iter?.[1]) out.set('iteration', Number(iter[1]), line);
  for (const rank in ranks) out.set(rank, ranks[rank], line);
  for (const [key, raw] of stats.fields) {
    if (PERCENT_KEYS.has(key)) {
      const v = readNumber(raw);
      if (v.ok && v.value !== null) out.set('prefix_cache_hit_rate', percentToFraction(v.value), line);
      continue;
    }
    out.set(KEYS[key] ?? columnOf(key), value(raw), line);
  }
}

/** An unknown key's column name: `#new-seq` → `num_new_seq`, `gen throughput (token/s)` → `gen_throughput`. */
function columnOf(key: string): string {
  return key.replace(/^#/, 'num_').replace(/\(.*?\)/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase();
}

function value(raw: string): FieldValue | undefined {
  if (raw === 'True') return true;
  if (raw === 'False') return false;
  const v = readNumber(raw);
  if (v.ok && v.rest === '') return v.value ?? undefined;
  return raw === '' ? undefined : raw;
}

/** `2025-03-14T02:16:14`; a `%m-%d` prefix borrows the last year seen in the file, else has none. */
export function isoTime(year: string | null, date: string | null, clock: string | null): string | null {
  if (!date || !clock) return null;
  return year ? `${year}-${date}T${clock}` : `${date}T${clock}`;
}
