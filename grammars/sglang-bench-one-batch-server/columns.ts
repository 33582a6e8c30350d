import { lookupTable } from '../../src/core/cells.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { scaleExact } from '../../src/parse/values.js';

/**
 * Where one of the tool's values goes. `seconds`: printed and written in seconds, stored in ms
 * (schema.md). `sentinel`: the tool writes -1 when it could not measure the value (no speculative
 * decoding, a vLLM server, an old server without the state): read as missing.
 */
export interface ColumnSpec {
  readonly column: string;
  readonly seconds?: true;
  readonly sentinel?: true;
}

const LATENCY: ColumnSpec = { column: 'total_latency_ms', seconds: true };
/** The time until the last request of the batch had its first token: the batch's largest TTFT. */
const LAST_TTFT: ColumnSpec = { column: 'max_ttft_ms', seconds: true };
const ACCEPT_LENGTH: ColumnSpec = { column: 'spec_acceptance_length', sentinel: true };
const LAST_GEN_THROUGHPUT: ColumnSpec = { column: 'last_gen_throughput', sentinel: true };
const HIT_RATE: ColumnSpec = { column: 'prefix_cache_hit_rate' };

/**
 * `--result-filename` keys (`BenchOneCaseResult.dump_to_jsonl`, and the dict the 2024-2025 script
 * wrote); `batch_size` is read by setBatchSize. A key not listed keeps its own name.
 */
export const JSON_KEYS: Readonly<Record<string, ColumnSpec>> = lookupTable({
  run_name: { column: 'run_name' },
  input_len: { column: 'input_len' },
  output_len: { column: 'output_len' },
  latency: LATENCY,
  // `ttft` in forks of the mid-2025 script; the same measurement as `last_ttft`
  ttft: LAST_TTFT,
  last_ttft: LAST_TTFT,
  input_throughput: { column: 'input_throughput' },
  output_throughput: { column: 'output_throughput' },
  overall_throughput: { column: 'total_token_throughput' },
  last_gen_throughput: LAST_GEN_THROUGHPUT,
  acc_length: ACCEPT_LENGTH,
  // measured from the server's /metrics counters over the case (a fraction, not the --cache-hit-rate asked for)
  cache_hit_rate: HIT_RATE,
  total_output_tokens: { column: 'total_output_tokens' },
});

/** The `label: value` lines printed for each case (newest and mid-2025 layouts). */
export const CASE_LABELS: Readonly<Record<string, ColumnSpec>> = lookupTable({
  input_len: { column: 'input_len' },
  output_len: { column: 'output_len' },
  latency: LATENCY,
  ttft: LAST_TTFT,
  last_ttft: LAST_TTFT,
  'input throughput': { column: 'input_throughput' },
  'output throughput': { column: 'output_throughput' },
  'last generation throughput': LAST_GEN_THROUGHPUT,
  acc_length: ACCEPT_LENGTH,
  'cache hit rate': HIT_RATE,
  // `2048 (requested 2048)`: the tokens generated (fewer when requests stop at EOS)
  'total output tokens': { column: 'total_output_tokens' },
  // `3/64`: the requests that stopped before output_len
  'early-stopped requests': { column: 'num_early_stopped' },
  // `X tok/s over a Y s full-batch window`: the window is read by case-runs.ts
  'steady-state output throughput': { column: 'steady_state_output_throughput' },
});

/**
 * `--show-report` table headers. null: computed by the tool from the columns above and a price it
 * assumes ($2 or $4 per GPU-hour), so read past: `ITL (ms)` is 1000 × batch / output throughput,
 * the costs follow from the throughputs (as a column a cost would also read as higher-is-better).
 * `batch size` is read by setBatchSize, `profile` by report-table.ts.
 */
export const TABLE_HEADERS: Readonly<Record<string, ColumnSpec | null>> = lookupTable({
  'input len': { column: 'input_len' },
  'latency (s)': LATENCY,
  'input throughput (tok/s)': { column: 'input_throughput' },
  'output throughput (tok/s)': { column: 'output_throughput' },
  'acc length': ACCEPT_LENGTH,
  'cache hit rate': HIT_RATE,
  'steady output throughput (tok/s)': { column: 'steady_state_output_throughput' },
  'early stops': { column: 'num_early_stopped' },
  'itl (ms)': null,
  'steady itl (ms)': null,
  'input cost ($/1m)': null,
  'output cost ($/1m)': null,
});

/**
 * The batch size and the concurrency it is: the tool sends the whole batch in one `/generate`
 * request (a list of prompts), so all of it is in flight at once.
 */
export function setBatchSize(builder: FieldMapBuilder, batchSize: number, line: number): void {
  builder.set('batch_size', batchSize, line);
  builder.set('max_concurrency', batchSize, line);
}

/** The tool's sentinel for a value it could not measure. */
const SENTINEL = -1;

/**
 * Sets a value read as `spec` says; returns false for a sentinel, which is left out (and counted by
 * the caller, so that no value disappears silently).
 */
export function setValue(builder: FieldMapBuilder, spec: ColumnSpec, value: number, line: number): boolean {
  if (spec.sentinel && value === SENTINEL) return false;
  builder.set(spec.column, spec.seconds ? scaleExact(value, 1000) : value, line);
  return true;
}

/** The sentinel values of one source, reported once (block/sentinel-value) at the first. */
export class SentinelTally {
  private count = 0;
  private first = 0;

  add(line: number): void {
    if (this.count++ === 0 || line < this.first) this.first = line;
  }

  report(file: RelPath, sink: DiagnosticSink): void {
    if (this.count > 0) sink.report('block/sentinel-value', { file, line: this.first, column: 1 }, this.count);
  }
}

/** Columns every run of this tool has. */
export function setTool(builder: FieldMapBuilder, engine: string, line: number): void {
  builder.set('client', 'sglang-bench-one-batch-server', line);
  builder.set('engine', engine, line);
}
