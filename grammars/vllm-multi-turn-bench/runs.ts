import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import type { StatRow, SummaryBlock } from './blocks.js';
import type { InvocationConfig } from './config.js';
import { cellValue } from './text.js';

export const CLIENT = 'vllm-multi-turn-bench';

/** The summary's `key = value` lines → columns (s, req/s). */
const SUMMARY_KEYS: Readonly<Record<string, string>> = {
  runtime_sec: 'duration_s',
  requests_per_sec: 'request_throughput',
  warmup_runtime_sec: 'warmup_duration_s',
  total_runtime_incl_warmup_sec: 'duration_incl_warmup_s',
};

/** Rows of the describe table whose values are the canonical latency and length columns. */
export const ROW_STEMS: Readonly<Record<string, string>> = {
  ttft_ms: 'ttft_ms',
  tpot_ms: 'tpot_ms',
  latency_ms: 'e2el_ms',
  input_num_tokens: 'input_len',
  output_num_tokens: 'output_len',
};
/** Rows the script prints (or printed) under no canonical name: kept as `{stat}_<row>`. */
const OWN_ROWS: ReadonlySet<string> = new Set(['input_num_turns', 'output_num_chunks', 'time_between_user_turns_sec', 'approx_cached_percent', 'output_num_first_chunk_tokens']);
/** The rows whose count is the number of successful requests (every request has each of them). */
const COUNT_ROWS = ['ttft_ms', 'tpot_ms', 'latency_ms', 'input_num_tokens', 'output_num_tokens'];

/** `mean` → `mean`, `50%` → `median`, `25%` → `p25`, `99.9%` → `p99.9`; null for `count`. */
function statName(stat: string): string | null {
  if (stat === 'mean' || stat === 'std' || stat === 'min' || stat === 'max') return stat;
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(stat)?.[1];
  if (pct === undefined) return null;
  return pct === '50' ? 'median' : `p${pct}`;
}

/** One run from a summary block and the configuration of its invocation. */
export function summaryRun(block: SummaryBlock, config: InvocationConfig, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const at = pos(source, block.line);
  let complete = true;
  if (block.tableLine === null) {
    sink.report('block/truncated', at, 'its statistics table');
    complete = false;
  } else if (!block.closed) {
    sink.report('block/truncated', at, 'the separator line closing its statistics table');
    complete = false;
  }
  if (block.values.length === 0 && block.rows.length === 0) {
    sink.report('table/no-rows', at, 'Statistics summary');
    return null;
  }
  const b = new FieldMapBuilder();
  const unknown: string[] = [];
  for (const v of block.values) {
    const value = cellValue(v.value);
    if (typeof value !== 'number') {
      if (value === null) sink.report('table/bad-cell', pos(source, v.line), v.key, v.value);
      continue;
    }
    const column = SUMMARY_KEYS[v.key];
    if (!column) unknown.push(v.key);
    b.set(column ?? v.key, value, v.line);
  }
  const counted = COUNT_ROWS.map((name) => block.rows.find((r) => r.name === name)).find((r) => r?.cells.has('count'));
  if (counted) {
    const count = cellValue(counted.cells.get('count') as string);
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) b.set('completed', count, counted.line);
  }
  for (const row of block.rows) {
    if (!ROW_STEMS[row.name] && !OWN_ROWS.has(row.name)) unknown.push(row.name);
    if (row.short) {
      sink.report('table/short-row', pos(source, row.line), row.name, row.short[0], row.short[1]);
      complete = false;
    }
    addRow(b, row, source, sink);
  }
  if (block.warmupPercent !== null) b.set('warmup_samples_fraction', block.warmupPercent / 100, block.line);
  b.set('multi_turn', true, block.line);
  const cfg = config.fields();
  for (const [column, value] of Object.entries(cfg.fields)) b.set(column, value, cfg.lines[column] ?? block.line);
  b.set('client', CLIENT, block.line);
  reportUnknownMetrics(unknown, sink, source.path, block.line);
  const label = block.warmupPercent === null ? null : `assuming ${block.warmupPercent}% warmup samples`;
  return { kind: 'run', at, label, complete, fields: b.fields, lines: b.lines, lastLine: block.lastLine };
}

function addRow(b: FieldMapBuilder, row: StatRow, source: TextSource, sink: DiagnosticSink): void {
  const stem = ROW_STEMS[row.name] ?? row.name;
  for (const [stat, cell] of row.cells) {
    const name = statName(stat);
    if (name === null) continue;
    const value = cellValue(cell);
    if (value === null) {
      sink.report('table/bad-cell', pos(source, row.line), `${row.name} ${stat}`, cell);
      continue;
    }
    // NaN: the std of a single sample
    if (value !== undefined) b.set(`${name}_${stem}`, value, row.line);
  }
}

function pos(source: TextSource, line: number): SourcePos {
  return { file: source.path, line, column: 1 };
}
