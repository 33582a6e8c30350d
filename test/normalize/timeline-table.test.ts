import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BenchRecord } from '../../src/core/records.js';
import { timelineRec } from '../helpers/records.js';
import { asRelPath, type FieldValue } from '../../src/core/types.js';
import { MAX_TIMELINE_COLUMNS, timelineTable } from '../../src/normalize/timeline-table.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
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

  it('reads rows by file then line whatever the order of the parts, a cell as its row has it, in any order of reading', () => {
    // parts of a few files, each on lines going up, sometimes down (a part out of order forces the sort)
    const partArb = fc.tuple(fc.constantFrom('a.log', 'b.log', 'c/d.log'), fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 9 })), { minLength: 1, maxLength: 12 }), fc.boolean());
    fc.assert(
      fc.property(fc.array(partArb, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (parts, reads) => {
        const logs = parts.map(([file, entries, sorted]) => {
          const lines = entries.map(([line]) => line);
          if (sorted) lines.sort((a, b) => a - b);
          return { file, entries: entries.map(([, running], i) => ({ line: lines[i] as number, running })) };
        });
        const parsed = logs.map(({ file, entries }) => ({ format: 'sglang-server', record: timelineSeriesOf(file, entries) }) as ParsedRecord);
        const expected = logs
          .flatMap(({ file, entries }, k) => entries.map((e, i) => ({ file, line: e.line, running: e.running, k, i })))
          .sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) || x.line - y.line || x.k - y.k || x.i - y.i);
        const table = timelineTable(parsed);
        expect(table.length).toBe(expected.length);
        const rows = Array.from({ length: table.length }, (_, i) => table.row(i));
        expect(rows.map((r) => [r.source_file, r.source_line, r.running])).toEqual(expected.map((e) => [e.file, e.line, e.running]));
        for (const n of reads) {
          if (table.length === 0) break;
          const i = n % table.length;
          for (const c of table.columns) expect(table.cell(i, c)).toEqual(rows[i]?.[c]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** A timeline record of `file` holding one entry per (line, running). */
function timelineSeriesOf(file: string, entries: readonly { line: number; running: number }[]): BenchRecord {
  const b = new TimelineSeriesBuilder();
  for (const e of entries) {
    b.begin(e.line);
    b.set('engine', 'sglang', e.line);
    b.set('running', e.running, e.line);
  }
  const series = b.finish();
  return { kind: 'timeline', at: { file: asRelPath(file), line: entries[0]?.line ?? 1, column: 1 }, series };
}

describe('a timeline of logs that each name stats of their own', () => {
  it('keeps the schema columns and the MAX_TIMELINE_COLUMNS others the most logs have, and says how many it left out', () => {
    // 5 logs of 250 columns each, the first 20 shared by all: 1,020 + … others, more than the cap
    const records: ParsedRecord[] = Array.from({ length: 5 }, (_, k) => {
      const fields: Record<string, FieldValue> = { running: 1 };
      for (let c = 0; c < 250; c++) fields[c < 20 ? `shared_${c}` : `own_${k}_${c}`] = c;
      return timelineRec(`log-${k}.log`, fields, 3);
    });
    const sink = new DiagnosticCollector();
    const table = timelineTable(records, sink);
    const others = table.columns.filter((c) => c.startsWith('shared_') || c.startsWith('own_'));
    expect(others).toHaveLength(Math.min(MAX_TIMELINE_COLUMNS, 20 + 5 * 230));
    expect(others.filter((c) => c.startsWith('shared_'))).toHaveLength(20);
    expect(table.columns.slice(0, 3)).toEqual(['source_file', 'source_line', 'engine']);
    expect(table.row(0).running).toBe(1);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['log-4.log:3 normalize/too-many-columns']);
  });
});
