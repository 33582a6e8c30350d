import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BenchRecord } from '../../src/core/records.js';
import { configRec, runRec, timelineRec } from '../helpers/records.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
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
      'kv_cache_usage', 'prefix_cache_hit_rate', 'spec_acceptance_rate', 'spec_acceptance_length', 'run_id',
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

describe("timelineTable: the runs' lines", () => {
  const bench = { model: 'org/m', completed: 10, failed: 0, output_throughput: 100 };
  const stats = (file: string, line: number, time: string, running: number) => timelineRec(file, { time, running, gen_throughput: 10 * running }, line);
  const runIds = (records: ParsedRecord[]) => {
    const built = buildRuns([...records], new DiagnosticCollector());
    const fileOf = new Map(built.rows.map((r) => [r.run_id, `${String(r.source_file)}:${String(r.source_line)}`]));
    const table = timelineTable(records, undefined, built.served);
    return Array.from({ length: table.length }, (_, i) => {
      const id = table.cell(i, 'run_id');
      return [table.cell(i, 'source_line'), id === null ? null : fileOf.get(id)];
    });
  };

  it("gives a tee'd log's lines to the run whose stretch they are, those that show requests running", () => {
    // a script's output under one tee: server start, two runs, each with the lines since the previous block
    const records = [
      configRec('sweep/run.log', 'server-log', { engine: 'vllm' }, 1),
      stats('sweep/run.log', 5, '11-02 10:00:10', 4),
      runRec('sweep/run.log', { ...bench, max_concurrency: 4 }, 10),
      stats('sweep/run.log', 20, '11-02 10:01:10', 0),
      stats('sweep/run.log', 21, '11-02 10:01:20', 8),
      runRec('sweep/run.log', { ...bench, max_concurrency: 8 }, 30),
    ];
    expect(runIds(records)).toEqual([
      [5, 'sweep/run.log:10'],
      [20, null],
      [21, 'sweep/run.log:30'],
    ]);
    // runs that say when they ran, beside another server's log: still their stretch of their own log
    const dated = records.map((r) => (r.record.kind === 'run' ? runRec('sweep/run.log', { ...bench, ...r.record.fields, date: '20251102-100200', duration_s: 200 }, r.record.at.line) : r));
    expect(runIds([...dated, configRec('sweep/other-serve.log', 'server-log', { engine: 'vllm' }, 1), stats('sweep/other-serve.log', 3, '11-02 09:00:00', 1)])).toEqual([
      [3, null],
      [5, 'sweep/run.log:10'],
      [20, null],
      [21, 'sweep/run.log:30'],
    ]);
  });

  it('gives a line inside two runs’ windows (two benchmarks against one server at once) to neither', () => {
    const records = [
      runRec('r/a.json', { ...bench, date: '20251102-100100', duration_s: 60 }, 1),
      runRec('r/b.json', { ...bench, date: '20251102-100130', duration_s: 60 }, 1),
      configRec('r/serve.log', 'server-log', { engine: 'vllm' }, 1),
      stats('r/serve.log', 10, '11-02 10:00:10', 4),
      stats('r/serve.log', 11, '11-02 10:00:40', 8),
      stats('r/serve.log', 12, '11-02 10:01:20', 4),
    ];
    expect(runIds(records)).toEqual([
      [10, 'r/a.json:1'],
      [11, null],
      [12, 'r/b.json:1'],
    ]);
  });
});
