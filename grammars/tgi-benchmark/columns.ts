import type { FieldMapBuilder } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import type { MdTable } from './visitor.js';
import { lookupTable } from '../../src/core/cells.js';

/** Latency steps → column stems; throughput steps → columns. */
const LATENCY: Readonly<Record<string, string>> = lookupTable({ prefill: 'ttft', 'decode (token)': 'tpot', 'decode (total)': 'decode_total' });
const THROUGHPUT: Readonly<Record<string, string>> = lookupTable({ prefill: 'prefill_throughput', decode: 'output_throughput' });
const PARAMETER_COLUMNS: Readonly<Record<string, string>> = lookupTable({
  model: 'model',
  'sequence length': 'input_len',
  'decode length': 'output_len',
  'n runs': 'num_runs',
});

/** The `| Parameter | Value |` table: applied to every run of its report. */
export function addParameters(params: FieldMapBuilder, table: MdTable): void {
  for (const row of table.rows) {
    const [name = '', cell = ''] = row.cells;
    // options are printed with Rust's Debug format: `Some(0.7)` when set, `None` when not
    const raw = cell.startsWith('Some(') && cell.endsWith(')') ? cell.slice(5, -1).trim() : cell;
    if (name === '' || raw === '' || /^none$/i.test(raw)) continue;
    const key = name.toLowerCase();
    const column = PARAMETER_COLUMNS[key] ?? key.replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
    const value = toField(column, raw);
    if (value !== undefined) params.set(column, value, row.line);
  }
}

/** Throughput cells say `tokens/secs`, latency cells `ms`; an all-NaN table is told by its columns. */
export function isThroughputTable(table: MdTable): boolean {
  const cells = table.rows.flatMap((r) => r.cells.slice(2));
  if (cells.some((c) => /tokens\/sec/.test(c))) return true;
  if (cells.some((c) => /\d\s*(?:ms|s|µs|us|ns)$/.test(c))) return false;
  return !table.header.some((h) => /^p\d/i.test(h));
}

export function latencyColumn(step: string, stat: string): string | null {
  const stem = LATENCY[step];
  return stem ? `${stat}_${stem}_ms` : null;
}

export function throughputColumn(step: string, stat: string): string | null {
  const column = THROUGHPUT[step];
  if (!column) return null;
  return stat === 'mean' ? column : `${stat}_${column}`;
}
