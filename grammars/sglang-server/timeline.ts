import type { FieldWriter } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { percentToFraction, readNumber } from '../../src/parse/values.js';
import type { StatsLine } from './stats-parser.js';
import { isLineTime } from './stats-tokens.js';
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
  'musa graph': 'graph',
  'largest-len': 'largest_len',
  'pre-allocated usage': 'preallocated_usage',
  '#prealloc-req': 'prealloc_req',
  '#inflight-req': 'inflight_req',
  '#transfer-req': 'transfer_req',
  '#retracted-req': 'retracted_req',
  '#bootstrap-req': 'bootstrap_req',
  // PD prefill lines of early-2025 builds: the same two queues under their first names
  '#unbootstrapped-req': 'bootstrap_req',
  '#transferring-req': 'inflight_req',
  // PD prefill with optimistic prefill (2026): requests admitted before their bootstrap finished
  '#optimistic-req': 'optimistic_req',
  // HiSparse decode lines (2026): the device buffer and the host pool; no `token usage` printed
  '#gpu token': 'num_gpu_tokens',
  'gpu token usage': 'gpu_token_usage',
  '#cpu token': 'num_cpu_tokens',
  'cpu token usage': 'cpu_kv_cache_usage',
  // `--enable-mfu-metrics` (2026): SGLang's own estimates per GPU over the interval since the last line
  'est. prefill TFLOPS/s (per GPU)': 'est_prefill_tflops_per_gpu',
  'est. decode TFLOPS/s (per GPU)': 'est_decode_tflops_per_gpu',
  'est. read BW (GB/s per GPU)': 'est_read_bw_gb_s_per_gpu',
  'est. write BW (GB/s per GPU)': 'est_write_bw_gb_s_per_gpu',
});

/**
 * Keys whose meaning on a Decode line is not their Prefill one. `#cached-token` on a 2026 decode
 * line (PD decode with `--disaggregation-decode-enable-radix-cache`, else 0) sums the prefix-cache
 * hits of the running requests, a snapshot of the batch; on a prefill line it is the new requests'
 * cached tokens (`cached_tokens`).
 */
const DECODE_KEYS: Readonly<Record<string, string>> = lookupTable({
  '#cached-token': 'running_cached_tokens',
});

/**
 * Keys printed as percents, always (`tree_cache_hit_rate: 80.83%`, `cache hit rate: 12.50%`,
 * `fwd occupancy: 87.20%`): stored as fractions, even when a line leaves the `%` out.
 */
const PERCENT_KEYS: Readonly<Record<string, string>> = lookupTable({
  tree_cache_hit_rate: 'prefix_cache_hit_rate',
  'cache hit rate': 'prefix_cache_hit_rate',
  // SGLANG_ENABLE_METRICS_DEVICE_TIMER: GPU busy time over wall time of the logging window
  'fwd occupancy': 'fwd_occupancy',
});

/**
 * One batch statistics line, written as one timeline entry into `out` (a series builder whose
 * entry was begun at `line`: a stats-dense log makes no object per line). `time` is its prefix's
 * (isoTime), `timeOfDay` its prefix's clock when that prints no date (`[04:40:55 TP0]`), else null.
 */
export function writeStatsEntry(out: FieldWriter, stats: StatsLine, line: number, time: string | null, timeOfDay: string | null, ranks: Readonly<Record<string, number>>): void {
  out.set('engine', 'sglang', line);
  if (time) out.set('time', time, line);
  const head = headOf(stats.head);
  if (head.batch !== null) out.set('batch', head.batch, line);
  if (head.iteration !== null) out.set('iteration', head.iteration, line);
  for (const rank in ranks) out.set(rank, ranks[rank], line);
  const decode = head.batch === 'decode';
  let dated = time !== null;
  let hisparseGpuUsage: FieldValue | undefined;
  for (const [key, raw] of stats.fields) {
    if (key === 'timestamp') {
      // the line's own time, to the microsecond: the prefix's, which some logs leave out
      if (!time && isLineTime(raw)) {
        out.set('time', raw, line);
        dated = true;
      }
      continue;
    }
    const k = keyOf(key);
    if (k.percent) {
      const v = readNumber(raw);
      if (v.ok && v.value !== null) out.set(k.column, percentToFraction(v.value), line);
      continue;
    }
    const column = decode ? k.decodeColumn : k.column;
    const v = value(raw);
    if (column === 'gpu_token_usage') hisparseGpuUsage = v;
    out.set(column, v, line);
  }
  // A HiSparse decode line's GPU pool is its device buffer: its usage is the line's KV cache usage
  // when the line prints no `token usage` / `full token usage` (set first, it wins otherwise).
  out.set('kv_cache_usage', hisparseGpuUsage, line);
  // a prefix with no date (`[04:40:55 TP0]`): no instant to put in `time`, the clock kept as printed
  if (!dated && timeOfDay !== null) out.set('time_of_day', timeOfDay, line);
}

/** What a line's head says: its batch kind and iteration. */
interface HeadInfo {
  readonly batch: 'decode' | 'prefill' | null;
  readonly iteration: number | null;
}

/** What a key is written as: its column on a prefill line and on a decode line, and whether it is a percent. */
interface KeyInfo {
  readonly column: string;
  readonly decodeColumn: string;
  readonly percent: boolean;
}

/**
 * Heads and keys, each worked out once: a stats-dense log repeats the same few on every line
 * (bounded, so a log of garbled keys cannot grow them without end).
 */
const HEADS = new Map<string, HeadInfo>();
const KEY_INFO = new Map<string, KeyInfo>();
const MAX_REMEMBERED = 1024;

function headOf(printed: string | null): HeadInfo {
  const key = printed ?? '';
  let info = HEADS.get(key);
  if (info === undefined) {
    const head = key.toLowerCase();
    const iter = /\[(\d+)\]/.exec(head)?.[1];
    info = { batch: head === '' ? null : head.startsWith('decode') ? 'decode' : 'prefill', iteration: iter ? Number(iter) : null };
    if (HEADS.size < MAX_REMEMBERED) HEADS.set(key, info);
  }
  return info;
}

function keyOf(key: string): KeyInfo {
  let info = KEY_INFO.get(key);
  if (info === undefined) {
    const percentColumn = PERCENT_KEYS[key];
    const column = percentColumn ?? KEYS[key] ?? columnOf(key);
    info = { column, decodeColumn: percentColumn ?? DECODE_KEYS[key] ?? column, percent: percentColumn !== undefined };
    if (KEY_INFO.size < MAX_REMEMBERED) KEY_INFO.set(key, info);
  }
  return info;
}

/**
 * An unknown key's column name: `#new-seq` → `num_new_seq`, `gen throughput (token/s)` →
 * `gen_throughput`; a request queue's count `#bootstrap-req` → `bootstrap_req`, as the PD queues
 * SGLang printed first are named (`inflight_req`, `prealloc_req`, `transfer_req`).
 */
function columnOf(key: string): string {
  const queue = /^#([A-Za-z][\w-]*)-req$/.exec(key)?.[1];
  const name = queue === undefined ? key.replace(/^#/, 'num_') : `${queue}_req`;
  return name.replace(/\(.*?\)/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase();
}

/** `True`/`False`, a number, a percent (as a fraction: schema.md stores no percents), else the text. */
function value(raw: string): FieldValue | undefined {
  if (raw === 'True') return true;
  if (raw === 'False') return false;
  const v = readNumber(raw);
  if (v.ok && v.rest === '') return v.value ?? undefined;
  if (v.ok && v.rest === '%') return v.value === null ? undefined : percentToFraction(v.value);
  return raw === '' ? undefined : raw;
}

/** `2025-03-14T02:16:14`; a `%m-%d` prefix borrows the last year seen in the file, else has none. */
export function isoTime(year: string | null, date: string | null, clock: string | null): string | null {
  if (!date || !clock) return null;
  return year ? `${year}-${date}T${clock}` : `${date}T${clock}`;
}
