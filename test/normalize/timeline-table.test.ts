import { describe, expect, it } from 'vitest';
import type { BenchRecord } from '../../src/core/records.js';
import { timelineRec } from '../helpers/records.js';
import { asRelPath, type FieldValue } from '../../src/core/types.js';
import { timelineTable } from '../../src/normalize/timeline-table.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';

function timeline(file: string, line: number, fields: Record<string, FieldValue>): BenchRecord {
  return timelineRec(file, fields, line).record;
}

/** Every row of the table, in order. */
function toTimelineRows(records: readonly ParsedRecord[]) {
  const table = timelineTable(records);
  return Array.from({ length: table.length }, (_, i) => table.row(i));
}

describe('timelineTable', () => {
  it('orders schema columns first, extras sorted, rows by file then line, nulls for missing', () => {
    const records = [
      { format: 'vllm-server', record: timeline('b.log', 9, { engine: 'vllm', gen_throughput: 10, swapped: 0 }) },
      { format: 'vllm-server', record: timeline('b.log', 2, { engine: 'vllm', kv_cache_usage: 0.5, engine_index: 1 }) },
      { format: 'sglang-server', record: timeline('a.log', 40, { engine: 'sglang', gen_throughput: 99.5, accept_len: 2.1, token_usage: 0.3 }) },
      { format: 'vllm-server', record: { kind: 'failure', at: { file: asRelPath('a.log'), line: 1, column: 1 }, exception: 'E', message: '' } },
    ] as unknown as ParsedRecord[];
    const rows = toTimelineRows(records);
    expect(rows.map((r) => [r.source_file, r.source_line, r.engine])).toEqual([
      ['a.log', 40, 'sglang'],
      ['b.log', 2, 'vllm'],
      ['b.log', 9, 'vllm'],
    ]);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'source_file', 'source_line', 'engine', 'time', 'prompt_throughput', 'gen_throughput', 'running', 'waiting',
      'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length',
      'accept_len', 'engine_index', 'swapped', 'token_usage',
    ]);
    expect(rows[0]).toMatchObject({ gen_throughput: 99.5, accept_len: 2.1, time: null, engine_index: null });
    expect(rows[1]).toMatchObject({ kv_cache_usage: 0.5, engine_index: 1, gen_throughput: null });
  });

  it('gives no rows (and no columns to invent) when there is no timeline record', () => {
    expect(toTimelineRows([])).toEqual([]);
  });
});
