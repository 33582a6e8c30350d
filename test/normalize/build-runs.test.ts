import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { runId } from '../../src/normalize/run-id.js';
import { compilePathTemplate } from '../../src/normalize/path-template.js';
import type { RunRecord } from '../../src/core/records.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';
import { configRec, failureRec, runRec, timelineRec } from '../helpers/records.js';

/** A run whose block's last value is on `last` (its lines below its first). */
function withLastLine(r: ParsedRecord, last: number): ParsedRecord {
  const record = r.record as RunRecord;
  return { ...r, record: { ...record, lines: { ...record.lines, p99_itl_ms: last } } };
}

const MODEL = 'org/Big-70B';
const bench = { model: MODEL, max_concurrency: 16, output_throughput: 500, completed: 100, failed: 0 };
const serverFields = { engine: 'vllm', engine_version: '0.11.0', model: MODEL, tp: 4, spec_method: 'draft_model', draft_model: 'org/Small-1B', num_spec_tokens: 8, server_status: 'ready' };

describe('buildRuns: configuration inference and linking', () => {
  it('fills a run from the serve log sharing its name, with sources in precedence order', () => {
    const sink = new DiagnosticCollector();
    const { rows, failedConfigurations } = buildRuns(
      [
        runRec('k8/tp-results-draft-model/bench-draft-model-c16.log', bench, 9),
        configRec('k8/tp-results-draft-model/draft-model-serve.log', 'server-log', serverFields, 2),
        configRec('k8/tp-results-draft-model/nosd-serve.log', 'server-log', { ...serverFields, spec_method: 'none', num_spec_tokens: null, draft_model: null }, 2),
      ],
      sink,
    );
    expect(rows).toHaveLength(1);
    const r = rows[0] ?? {};
    expect([r.spec_method, r.num_spec_tokens, r.max_concurrency, r.tp, r.draft_model, r.engine, r.model]).toEqual(['draft_model', 8, 16, 4, 'org/Small-1B', 'vllm', MODEL]);
    expect(JSON.parse(String(r.config_sources))).toEqual(['path', 'bench-args', 'server-log:k8/tp-results-draft-model/draft-model-serve.log:2']);
    expect(failedConfigurations).toEqual([]);
    expect(sink.list().filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('gives each run printed in its server log the server started last above it, over the logs beside it', () => {
    // a script's output under one tee: a server restarted per configuration, a benchmark after each start
    const none = { ...serverFields, spec_method: 'none', num_spec_tokens: null, draft_model: null };
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(
      [
        configRec('sweep/run.log', 'server-log', none, 1),
        runRec('sweep/run.log', { ...bench, mean_ttft_ms: 30 }, 40),
        configRec('sweep/run.log', 'server-log', { ...serverFields, num_spec_tokens: 2 }, 70),
        configRec('sweep/run.log', 'server-log', { ...serverFields, num_spec_tokens: 4, server_status: 'failed-start' }, 100),
        runRec('sweep/run.log', { ...bench, mean_ttft_ms: 31 }, 140),
        configRec('sweep/run.log', 'server-log', { ...serverFields, engine: 'sglang', num_spec_tokens: 6 }, 170),
        runRec('sweep/run.log', { ...bench, engine: 'vllm', mean_ttft_ms: 32 }, 200),
        // a server log beside it fits by name, and loses to the server in the run's own file
        configRec('sweep/run-serve.log', 'server-log', { ...serverFields, num_spec_tokens: 8 }, 2),
      ],
      sink,
    );
    expect(rows.map((r) => [r.source_line, r.spec_method, r.num_spec_tokens, r.engine])).toEqual([
      [40, 'none', null, 'vllm'],
      // the restart at 100 failed: the server of 70 is the one that served
      [140, 'draft_model', 2, 'vllm'],
      // a run that names its engine is not served by another engine's server
      [200, 'draft_model', 2, 'vllm'],
    ]);
    expect(JSON.parse(String(rows[1]?.config_sources))).toEqual(['bench-args', 'server-log:sweep/run.log:70']);
    // the start that failed served no run: a failed configuration, and the only warning
    expect(sink.list().filter((d) => d.severity !== 'info').map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['sweep/run.log:100 link/failed-configuration']);
  });

  it("gives a run kept as its result JSON the server above its stdout block in the tee'd log", () => {
    const measured = { ...bench, total_output_tokens: 25_600, duration_s: 51.2, mean_ttft_ms: 31.07 };
    const { rows } = buildRuns(
      [
        configRec('x/run.log', 'server-log', serverFields, 1),
        runRec('x/run.log', measured, 40),
        { ...runRec('x/result.json', { ...measured, duration_s: 51.2034, mean_ttft_ms: 31.0712 }), format: 'vllm-bench-result-json' },
      ],
      new DiagnosticCollector(),
    );
    expect(rows.map((r) => [r.source_file, r.tp, r.spec_method])).toEqual([['x/result.json', 4, 'draft_model']]);
  });

  it("reports a server of a tee'd log that crashed before serving any run as a failed configuration", () => {
    const sink = new DiagnosticCollector();
    const { rows, failedConfigurations } = buildRuns(
      [
        configRec('t/run.log', 'server-log', { ...serverFields, num_spec_tokens: 2 }, 1),
        runRec('t/run.log', bench, 10),
        // the first server crashed after its run: it served, it is no failed configuration, and its run keeps it
        failureRec('t/run.log', 'RuntimeError', 'Engine core died', 15),
        configRec('t/run.log', 'server-log', { ...serverFields, num_spec_tokens: 16 }, 20),
        failureRec('t/run.log', 'torch.OutOfMemoryError', 'CUDA out of memory.', 25),
        configRec('t/run.log', 'server-log', { ...serverFields, num_spec_tokens: 4 }, 30),
        runRec('t/run.log', bench, 40),
        // a crash in another file is no failure of this file's servers, even below their lines
        runRec('u/run.log', bench, 9),
        failureRec('u/run.log', 'ValueError', 'client gave up', 50),
      ],
      sink,
    );
    expect(rows.map((r) => [r.source_file, r.source_line, r.num_spec_tokens ?? null])).toEqual([
      ['t/run.log', 10, 2],
      ['t/run.log', 40, 4],
      ['u/run.log', 9, null],
    ]);
    expect(failedConfigurations.map((f) => [f.source_file, f.source_line, f.error_at, f.exception, f.config.num_spec_tokens])).toEqual([['t/run.log', 20, 't/run.log:25', 'torch.OutOfMemoryError', 16]]);
  });

  it('takes no server log of the run file above a later launch command, nor any in a write-up', () => {
    const { rows } = buildRuns(
      [
        configRec('a/run.log', 'server-log', serverFields, 1),
        configRec('a/run.log', 'launch-command', { engine: 'vllm', tp: 8 }, 30),
        runRec('a/run.log', bench, 40),
        // a write-up pastes a server's log in one section and another configuration's block in the next
        configRec('b/post.md', 'server-log', serverFields, 5),
        runRec('b/post.md', bench, 60),
      ],
      new DiagnosticCollector(),
    );
    expect(rows.map((r) => [r.source_file, r.tp, r.spec_method ?? null])).toEqual([
      ['a/run.log', 8, null],
      ['b/post.md', null, null],
    ]);
  });

  it('leaves out of the table the extra columns beyond its cap (garbage labels in thousands of runs)', () => {
    const garbage = (file: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${file}_${i}`, i]));
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns([runRec('a/bench.log', { ...bench, ...garbage('a', 1500) }), runRec('b/bench.log', { ...bench, ...garbage('b', 1500) })], sink);
    const extra = new Set(rows.flatMap((r) => Object.keys(r).filter((k) => /^[ab]_\d+$/.test(k))));
    expect(extra.size).toBe(2000);
    expect(rows[0]?.output_throughput).toBe(500);
    expect(sink.list().map((d) => d.code)).toContain('normalize/too-many-columns');
  });

  it('links a log in the parent directory when the run directory has none', () => {
    const { rows } = buildRuns([runRec('sweep/c4/out.log', { ...bench, max_concurrency: 4 }), configRec('sweep/server.log', 'server-log', { tp: 2 })], new DiagnosticCollector());
    expect(rows[0]?.tp).toBe(2);
  });

  it('links nothing and says so when two logs fit equally', () => {
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns([runRec('d/bench-c4.log', bench), configRec('d/a-serve.log', 'server-log', { tp: 2 }), configRec('d/b-serve.log', 'server-log', { tp: 8 })], sink);
    expect(rows[0]?.tp ?? null).toBeNull();
    expect(sink.list().map((d) => d.code)).toContain('link/ambiguous-server');
  });

  it('names at most three of the logs that fit equally (a flat folder of thousands would make one line of each run a page)', () => {
    const sink = new DiagnosticCollector();
    const logs = ['a', 'b', 'c', 'd', 'e'].map((n) => configRec(`d/${n}-serve.log`, 'server-log', { tp: 2 }));
    buildRuns([runRec('d/bench-c4.log', bench), ...logs], sink);
    expect(sink.list().filter((d) => d.code === 'link/ambiguous-server').map((d) => d.message)).toEqual([
      'several server logs fit this run equally (d/a-serve.log, d/b-serve.log, d/c-serve.log and 2 more): none linked',
    ]);
  });

  it('ranks manifest over server log over bench args over path, warning on conflicts', () => {
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(
      [
        runRec('tp8/v1/bench-c16.log', { ...bench, max_concurrency: 32 }),
        configRec('tp8/v1/serve.log', 'server-log', { tp: 4 }),
        configRec('tp8/v1/manifest.json', 'manifest', { label: 'v1', tp: 2 }, 1),
      ],
      sink,
    );
    const r = rows[0] ?? {};
    expect([r.tp, r.max_concurrency, r.label]).toEqual([2, 32, 'v1']);
    const conflicts = sink.list().filter((d) => d.code === 'config/conflict').map((d) => d.message);
    expect(conflicts).toContain('tp: manifest:tp8/v1/manifest.json:1 = 2 disagrees with server-log:tp8/v1/serve.log:2 = 4; kept the first');
    expect(conflicts).toContain('max_concurrency: bench-args = 32 disagrees with path = 16; kept the first');
  });

  it('uses the path template above the built-in heuristics', () => {
    const t = compilePathTemplate('{engine}/{label}/c{max_concurrency}.log');
    const { rows } = buildRuns([runRec('sglang/tuned/c8.log', { output_throughput: 1 })], new DiagnosticCollector(), { pathTemplate: t });
    expect([rows[0]?.engine, rows[0]?.max_concurrency]).toEqual(['sglang', 8]);
  });

  it("gives a run nothing of the one server beside it that crashed before it was ready, and reports that server's failure", () => {
    const sink = new DiagnosticCollector();
    const { rows, failedConfigurations } = buildRuns(
      [
        runRec('tune/bench.log', bench),
        configRec('tune/vllm_log_512_8192.txt', 'server-log', { ...serverFields, max_num_seqs: 512, server_status: 'failed-start' }, 2),
        failureRec('tune/vllm_log_512_8192.txt', 'torch.OutOfMemoryError', 'CUDA out of memory.', 30),
      ],
      sink,
    );
    expect(rows.map((r) => [r.max_num_seqs, r.tp, JSON.parse(String(r.config_sources))])).toEqual([[null, null, ['bench-args']]]);
    expect(failedConfigurations.map((f) => [f.source_file, f.exception, f.config.max_num_seqs])).toEqual([['tune/vllm_log_512_8192.txt', 'torch.OutOfMemoryError', 512]]);
  });

  it('reports a crashed server with no runs as a failed configuration', () => {
    const sink = new DiagnosticCollector();
    const { failedConfigurations } = buildRuns(
      [
        runRec('tp-results/bench-nosd-c1.log', bench),
        configRec('k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log', 'server-log', { ...serverFields, tp: 2, server_status: 'failed-start' }, 2),
        failureRec('k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log', 'torch.OutOfMemoryError', 'CUDA out of memory. Tried to allocate 448.00 MiB.', 14),
      ],
      sink,
    );
    expect(failedConfigurations).toEqual([
      {
        source_file: 'k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log',
        source_line: 2,
        error_at: 'k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log:14',
        exception: 'torch.OutOfMemoryError',
        message: 'CUDA out of memory. Tried to allocate 448.00 MiB.',
        config: { engine: 'vllm', engine_version: '0.11.0', model: MODEL, tp: 2, spec_method: 'draft_model', draft_model: 'org/Small-1B', num_spec_tokens: 8 },
        config_sources: ['path', 'server-log:k8/tp-results-draft-model-tp2/draft-model-tp2-serve.log:2'],
      },
    ]);
    expect(sink.list().map((d) => d.code)).toContain('link/failed-configuration');
  });
});

describe('buildRuns: server aggregates', () => {
  const tl = (file: string, time: string, gen: number, kv: number, running: number, waiting: number, line: number) =>
    timelineRec(file, { time, gen_throughput: gen, kv_cache_usage: kv, running, waiting }, line);

  it('aggregates only the stats lines inside the run window', () => {
    const { rows } = buildRuns(
      [
        runRec('r/bench-a.json', { ...bench, date: '20251102-100100', duration_s: 60 }),
        runRec('r/bench-b.json', { ...bench, date: '20251102-100300', duration_s: 60 }),
        configRec('r/serve.log', 'server-log', { tp: 1 }),
        tl('r/serve.log', '11-02 10:00:10', 100, 0.1, 4, 0, 10),
        tl('r/serve.log', '11-02 10:00:40', 300, 0.3, 8, 2, 11),
        tl('r/serve.log', '11-02 10:02:30', 900, 0.9, 16, 5, 12),
      ],
      new DiagnosticCollector(),
    );
    const a = rows.find((r) => r.source_file === 'r/bench-a.json') ?? {};
    expect([a.server_gen_throughput_mean, a.server_kv_cache_usage_max, a.server_running_max, a.server_waiting_max]).toEqual([200, 0.3, 8, 2]);
    const b = rows.find((r) => r.source_file === 'r/bench-b.json') ?? {};
    expect([b.server_gen_throughput_mean, b.server_running_max]).toEqual([900, 16]);
  });

  it("totals the preemptions of the run's lines, and gives none to a run whose lines say none (not 0: older servers print no count)", () => {
    const withPreemptions = (file: string, time: string, preemptions: number | null, line: number) =>
      timelineRec(file, { time, gen_throughput: 500, running: 32, ...(preemptions === null ? {} : { preemptions }) }, line);
    const { rows } = buildRuns(
      [
        runRec('p/bench-a.json', { ...bench, date: '20251102-100100', duration_s: 60 }),
        runRec('p/bench-b.json', { ...bench, date: '20251102-100300', duration_s: 60 }),
        configRec('p/serve.log', 'server-log', { tp: 1 }),
        withPreemptions('p/serve.log', '11-02 10:00:10', 3, 10),
        withPreemptions('p/serve.log', '11-02 10:00:20', null, 11),
        withPreemptions('p/serve.log', '11-02 10:00:40', 4, 12),
        withPreemptions('p/serve.log', '11-02 10:02:30', null, 13),
        // after b's window: not b's
        withPreemptions('p/serve.log', '11-02 10:03:30', 9, 14),
      ],
      new DiagnosticCollector(),
    );
    const byFile = Object.fromEntries(rows.map((r) => [r.source_file, r.server_preemptions ?? null]));
    expect(byFile).toEqual({ 'p/bench-a.json': 7, 'p/bench-b.json': null });
  });

  it('links each run to the log whose stats span covers its window, over file names', () => {
    const { rows } = buildRuns(
      [
        runRec('t/bench-a.json', { ...bench, date: '20251102-100100', duration_s: 60 }),
        runRec('t/bench-b.json', { ...bench, date: '20251102-120100', duration_s: 60 }),
        configRec('t/a-serve.log', 'server-log', { tp: 8 }),
        tl('t/a-serve.log', '11-02 11:59:00', 10, 0.1, 1, 0, 5),
        tl('t/a-serve.log', '11-02 12:02:00', 10, 0.1, 1, 0, 6),
        configRec('t/b-serve.log', 'server-log', { tp: 2 }),
        tl('t/b-serve.log', '11-02 09:59:00', 10, 0.1, 1, 0, 5),
        tl('t/b-serve.log', '11-02 10:02:00', 10, 0.1, 1, 0, 6),
      ],
      new DiagnosticCollector(),
    );
    expect(rows.map((r) => [r.source_file, r.tp])).toEqual([
      ['t/bench-a.json', 2],
      ['t/bench-b.json', 8],
    ]);
  });

  it('says so when every log beside a run has stats at other times only (two time zones)', () => {
    const sink = new DiagnosticCollector();
    // the client wrote its local time (UTC+2), the server's container logged UTC
    const { rows } = buildRuns(
      [runRec('z/bench.json', { ...bench, date: '20251102-120100', duration_s: 60 }), configRec('z/serve.log', 'server-log', { tp: 8 }), tl('z/serve.log', '11-02 09:59:00', 10, 0.1, 1, 0, 5), tl('z/serve.log', '11-02 10:02:00', 10, 0.1, 1, 0, 6)],
      sink,
    );
    expect(rows[0]?.tp ?? null).toBeNull();
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.severity} ${d.message}`)).toEqual([
      "z/bench.json:1 warning the server log beside this run has no stats at its time (from 2025-11-02 12:00:00): none linked (its own log missing or overwritten, or the run's clock and the logs' in two time zones, which --clock-offset sets: its stats end 1 h 58 min before the run; a positive offset reads the run earlier)",
    ]);
    // a log at its time beside it: linked, and nothing said of the other
    const linked = new DiagnosticCollector();
    buildRuns([runRec('z/bench.json', { ...bench, date: '20251102-120100', duration_s: 60 }), configRec('z/a-serve.log', 'server-log', { tp: 8 }), tl('z/a-serve.log', '11-02 09:59:00', 10, 0.1, 1, 0, 5), configRec('z/b-serve.log', 'server-log', { tp: 2 }), tl('z/b-serve.log', '11-02 12:00:30', 10, 0.1, 1, 0, 5)], linked);
    expect(linked.list().filter((d) => d.code === 'link/off-clock')).toEqual([]);
  });

  it("links a run on another clock than its server's logs with --clock-offset, and reads their stats at its time on theirs", () => {
    const run = runRec('z/bench.json', { ...bench, date: '20251102-120100', duration_s: 60 });
    const log = [configRec('z/serve.log', 'server-log', { tp: 8 }), tl('z/serve.log', '11-02 09:59:00', 10, 0.1, 1, 0, 5), tl('z/serve.log', '11-02 10:00:30', 30, 0.4, 6, 0, 6), tl('z/serve.log', '11-02 10:02:00', 50, 0.9, 12, 0, 7)];
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns([run, ...log], sink, { clockOffsetMs: 2 * 3_600_000 });
    expect(sink.list()).toEqual([]);
    // the stats line in the run's minute (10:00–10:01 on the logs' clock), not the server's others
    expect([rows[0]?.tp, rows[0]?.server_kv_cache_usage_max, rows[0]?.server_running_max]).toEqual([8, 0.4, 6]);
    // an offset that does not fit says where the run then is, and how far from the stats
    const wrong = new DiagnosticCollector();
    expect(buildRuns([run, ...log], wrong, { clockOffsetMs: -5.5 * 3_600_000 }).rows[0]?.tp ?? null).toBeNull();
    expect(wrong.list().map((d) => d.message)).toEqual([
      "the server log beside this run has no stats at its time (from 2025-11-02 12:00:00, 2025-11-02 17:30:00 on the logs' clock with --clock-offset -5:30): none linked (its own log missing or overwritten, or the run's clock and the logs' in two time zones, which --clock-offset sets: its stats end 7 h 28 min before the run; a positive offset reads the run earlier; --clock-offset +2, alone of the quarter hours, puts every such run here on its server's busy stats at its load)",
    ]);
    // a log whose stats come after the run's time
    const early = new DiagnosticCollector();
    buildRuns([runRec('z/bench.json', { ...bench, date: '20251102-080100', duration_s: 60 }), ...log], early);
    expect(early.list()[0]?.message).toContain('its stats begin 1 h 58 min after it; a negative offset reads the run later; --clock-offset -2, alone of the quarter hours,');
  });

  it("links a run that ends within a stats interval after its server's last stats line, below one its span covers", () => {
    const serve = (file: string, tp: number, times: string[]) => [configRec(file, 'server-log', { tp }), ...times.map((t, i) => tl(file, t, 10, 0.1, 1, 0, 5 + i))];
    // the last run of a server: the server stopped 30 s after its last stats line, before the next
    const tail = buildRuns([runRec('y/bench.json', { ...bench, date: '20251102-100130', duration_s: 20 }), ...serve('y/serve.log', 4, ['11-02 09:59:00', '11-02 10:01:00'])], new DiagnosticCollector());
    expect(tail.rows[0]?.tp).toBe(4);
    // a log whose span covers the run wins over one that only comes near it
    const both = buildRuns(
      [runRec('y/bench.json', { ...bench, date: '20251102-100130', duration_s: 20 }), ...serve('y/a-serve.log', 4, ['11-02 09:59:00', '11-02 10:01:00']), ...serve('y/b-serve.log', 8, ['11-02 10:01:05', '11-02 10:03:00'])],
      new DiagnosticCollector(),
    );
    expect(both.rows[0]?.tp).toBe(8);
  });

  it('keeps, of a result and its copy in another folder, the one beside its server log', () => {
    const sink = new DiagnosticCollector();
    const result = { ...bench, date: '20251102-100100', duration_s: 60, mean_ttft_ms: 31.07 };
    const { rows } = buildRuns([runRec('best/c16.json', result), runRec('raw/tp4/c16.json', result), configRec('raw/tp4/serve.log', 'server-log', { tp: 4 })], sink);
    expect(rows.map((r) => [r.source_file, r.tp])).toEqual([['raw/tp4/c16.json', 4]]);
    expect(sink.list().map((d) => `${d.file} ${d.code}`)).toEqual(['best/c16.json normalize/copied-run']);
  });

  it('counts the runs linked to each log or manifest, a copy merged away not among them', () => {
    const result = { ...bench, date: '20251102-100100', duration_s: 60, mean_ttft_ms: 31.07 };
    const { rows, linkedRuns } = buildRuns(
      [
        runRec('x/c16.json', result),
        runRec('x/y/c16.json', result),
        runRec('x/c32.json', { ...result, max_concurrency: 32, mean_ttft_ms: 40 }),
        configRec('x/serve.log', 'server-log', { tp: 4 }),
        configRec('x/manifest.json', 'manifest', { label: 'v1' }),
      ],
      new DiagnosticCollector(),
    );
    expect(rows).toHaveLength(2);
    expect(Object.fromEntries(linkedRuns)).toEqual({ 'x/serve.log': 2, 'x/manifest.json': 2 });
  });

  it("aggregates, for each run printed in its server's log, the lines since the previous run's block or its server's start that show requests running", () => {
    const none = { ...serverFields, spec_method: 'none', num_spec_tokens: null, draft_model: null };
    const log = (file: string) => [
      configRec(file, 'server-log', none, 1),
      tl(file, '', 100, 0.1, 4, 0, 10),
      tl(file, '', 300, 0.3, 8, 2, 11),
      withLastLine(runRec(file, { ...bench, mean_ttft_ms: 30 }, 40), 44),
      // printed as the first run's block was: the first run's
      tl(file, '', 500, 0.5, 8, 0, 42),
      // the interval the first run ended in, printed after its block: none running
      tl(file, '', 50, 0.05, 0, 0, 45),
      tl(file, '', 900, 0.9, 16, 5, 50),
      runRec(file, { ...bench, mean_ttft_ms: 31 }, 60),
      tl(file, '', 1000, 1, 32, 9, 65),
      configRec(file, 'server-log', { ...serverFields, num_spec_tokens: 2 }, 70),
      tl(file, '', 400, 0.4, 6, 1, 80),
      runRec(file, { ...bench, mean_ttft_ms: 32 }, 90),
      runRec(file, { ...bench, mean_ttft_ms: 33 }, 99),
    ];
    const aggregates = (rows: readonly Record<string, unknown>[]) =>
      rows.map((r) => [r.source_line, r.server_gen_throughput_mean ?? null, r.server_kv_cache_usage_max ?? null, r.server_running_max ?? null, r.server_waiting_max ?? null]);
    expect(aggregates(buildRuns(log('tee/run.log'), new DiagnosticCollector()).rows)).toEqual([
      [40, 300, 0.5, 8, 2],
      [60, 900, 0.9, 16, 5],
      // the lines before a restart are the old server's
      [90, 400, 0.4, 6, 1],
      // no line since the previous run
      [99, null, null, null, null],
    ]);
    // a write-up's pasted lines are a sample, not the run's interval
    expect(aggregates(buildRuns(log('tee/notes.md'), new DiagnosticCollector()).rows).map((r) => r[1])).toEqual([null, null, null, null]);
  });

  it('uses the whole log only when it serves a single run with no clock', () => {
    const one = buildRuns([runRec('s/bench.log', bench), configRec('s/serve.log', 'server-log', { tp: 1 }), tl('s/serve.log', '11-02 10:00:10', 100, 0.5, 3, 1, 5)], new DiagnosticCollector());
    expect(one.rows[0]?.server_gen_throughput_mean).toBe(100);
    const two = buildRuns(
      [runRec('s/bench-c1.log', bench), runRec('s/bench-c2.log', bench), configRec('s/serve.log', 'server-log', { tp: 1 }), tl('s/serve.log', '11-02 10:00:10', 100, 0.5, 3, 1, 5)],
      new DiagnosticCollector(),
    );
    expect(two.rows.map((r) => r.server_gen_throughput_mean ?? null)).toEqual([null, null]);
  });
});

describe('buildRuns: speculative-decoding rates from the linked log', () => {
  const eagle = { ...bench, spec_method: 'eagle3' };
  /** A vLLM V1 stats interval with its SpecDecoding line: rates and the tokens it drafted. */
  const v1 = (time: string, rate: number, length: number, positions: number[], drafted: number, line: number) =>
    timelineRec('r/serve.log', { time, running: 4, spec_acceptance_rate: rate, spec_acceptance_length: length, spec_per_position_acceptance: positions, spec_draft_tokens: drafted, spec_accepted_tokens: Math.round(rate * drafted) }, line);
  const idle = (time: string, line: number) => timelineRec('r/serve.log', { time, running: 0, spec_acceptance_length: 1, spec_draft_tokens: 0, spec_accepted_tokens: 0 }, line);
  const rates = (r: Record<string, unknown>) => [r.spec_acceptance_rate ?? null, r.spec_acceptance_length ?? null, r.spec_per_position_acceptance ?? null];
  const lastSource = (r: Record<string, unknown>) => (JSON.parse(String(r.config_sources)) as string[]).at(-1);

  it("gives each run its window's acceptance lines, weighted by the tokens each drafted, an idle interval weighing nothing", () => {
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(
      [
        runRec('r/bench-c1.json', { ...eagle, max_concurrency: 1, date: '20251102-100100', duration_s: 60 }),
        runRec('r/bench-c8.json', { ...eagle, max_concurrency: 8, date: '20251102-100300', duration_s: 60 }),
        configRec('r/serve.log', 'server-log', { engine: 'vllm', num_spec_tokens: 2 }, 2),
        v1('11-02 10:00:10', 0.6, 2.2, [0.8, 0.4], 100, 10),
        v1('11-02 10:00:40', 0.5, 2.0, [0.7, 0.3], 300, 11),
        idle('11-02 10:00:50', 12),
        v1('11-02 10:02:20', 0.4, 1.8, [0.6, 0.2], 1000, 20),
        v1('11-02 10:02:50', 0.3, 1.6, [0.5, 0.1], 1000, 21),
      ],
      sink,
    );
    const [c1, c8] = [rows.find((r) => r.max_concurrency === 1) ?? {}, rows.find((r) => r.max_concurrency === 8) ?? {}];
    expect(rates(c1)).toEqual([0.525, 2.05, [0.725, 0.325]]);
    expect(lastSource(c1)).toBe('server-stats:r/serve.log:10-12');
    expect(rates(c8)).toEqual([0.35, 1.7, [0.55, 0.15]]);
    expect(lastSource(c8)).toBe('server-stats:r/serve.log:20-21');
    expect(sink.list().filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('keeps the rates a run measured itself, and gives none for a window its server drafted nothing in', () => {
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(
      [
        runRec('r/bench-c1.json', { ...eagle, max_concurrency: 1, date: '20251102-100100', duration_s: 60, spec_acceptance_length: 2.5 }),
        runRec('r/bench-c8.json', { ...eagle, max_concurrency: 8, date: '20251102-100300', duration_s: 60 }),
        configRec('r/serve.log', 'server-log', { engine: 'vllm' }, 2),
        v1('11-02 10:00:10', 0.6, 2.2, [0.8, 0.4], 100, 10),
        idle('11-02 10:02:20', 20),
      ],
      sink,
    );
    const [c1, c8] = [rows.find((r) => r.max_concurrency === 1) ?? {}, rows.find((r) => r.max_concurrency === 8) ?? {}];
    expect(rates(c1)).toEqual([null, 2.5, null]);
    expect(rates(c8)).toEqual([null, null, null]);
    expect(JSON.parse(String(c8.config_sources))).not.toContain('server-stats:r/serve.log:20');
    expect(sink.list().filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it("differences vLLM V0's counts since its server started across the window", () => {
    // `Speculative metrics:` counts every token since the server started: the run's are the growth in its window
    const v0 = (time: string, accepted: number, drafted: number, line: number) =>
      timelineRec('r/serve.log', { time, spec_acceptance_rate: accepted / drafted, spec_system_efficiency: 0.5, spec_accepted_tokens: accepted, spec_draft_tokens: drafted }, line);
    const { rows } = buildRuns(
      [
        runRec('r/bench-c8.json', { ...eagle, date: '20251102-100300', duration_s: 60 }),
        runRec('r/bench-c1.json', { ...eagle, date: '20251102-100100', duration_s: 60 }),
        configRec('r/serve.log', 'server-log', { engine: 'vllm' }, 2),
        v0('11-02 10:00:30', 50, 100, 10),
        v0('11-02 10:02:30', 110, 300, 20),
        v0('11-02 10:02:50', 170, 500, 21),
      ],
      new DiagnosticCollector(),
    );
    const byFile = Object.fromEntries(rows.map((r) => [String(r.source_file), r.spec_acceptance_rate ?? null]));
    expect(byFile).toEqual({ 'r/bench-c1.json': 0.5, 'r/bench-c8.json': 0.3 });
  });

  it("weighs SGLang's accept lengths, which count no drafted tokens, by the requests running", () => {
    const sglang = (time: string, running: number, length: number, line: number) => timelineRec('r/serve.log', { time, running, spec_acceptance_length: length }, line);
    const { rows } = buildRuns(
      [
        runRec('r/bench.jsonl', { ...eagle, date: '20251102-100100', duration_s: 60 }),
        configRec('r/serve.log', 'server-log', { engine: 'sglang' }, 2),
        sglang('2025-11-02 10:00:10', 1, 3.0, 10),
        sglang('2025-11-02 10:00:20', 3, 2.0, 11),
      ],
      new DiagnosticCollector(),
    );
    expect(rows[0]?.spec_acceptance_length).toBe(2.25);
  });

  it('reads the whole log for a run without a window only when the log serves that run alone', () => {
    const lines = [configRec('r/serve.log', 'server-log', { engine: 'vllm' }, 2), v1('11-02 10:00:10', 0.6, 2.2, [0.8, 0.4], 100, 10), v1('11-02 10:00:40', 0.5, 2.0, [0.7, 0.3], 300, 11)];
    const one = buildRuns([runRec('r/bench.log', eagle), ...lines], new DiagnosticCollector());
    expect(rates(one.rows[0] ?? {})).toEqual([0.525, 2.05, [0.725, 0.325]]);
    const two = buildRuns([runRec('r/bench-c1.log', eagle), runRec('r/bench-c2.log', eagle), ...lines], new DiagnosticCollector());
    expect(two.rows.map((r) => r.spec_acceptance_rate ?? null)).toEqual([null, null]);
  });
});

describe('buildRuns: run ids', () => {
  it('gives each of several runs on one line an id of its own, the first the id of its file:line', () => {
    // results written back to back without a newline (`cat` of result files), three load points on line 1
    const records = [1, 2, 4].map((c) => runRec('all.json', { ...bench, max_concurrency: c, output_throughput: 100 * c }, 1));
    const { rows } = buildRuns([...records, runRec('all.json', { ...bench, max_concurrency: 8 }, 2)], new DiagnosticCollector());
    const ids = rows.map((r) => r.run_id);
    expect(rows.map((r) => r.max_concurrency)).toEqual([1, 2, 4, 8]);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(runId('all.json', 1));
    expect(ids[3]).toBe(runId('all.json', 2));
    // the same input gives the same ids
    const again = buildRuns([1, 2, 4].map((c) => runRec('all.json', { ...bench, max_concurrency: c, output_throughput: 100 * c }, 1)), new DiagnosticCollector());
    expect(again.rows.map((r) => r.run_id)).toEqual(ids.slice(0, 3));
  });
});

describe('buildRuns: derived columns a tool printed', () => {
  it("keeps a tool's per-GPU throughput where the run's GPUs are not known, and derives it where they are", () => {
    const printed = { ...bench, output_throughput: 5530.7382, output_throughput_per_gpu: 5530.7382 };
    const { rows } = buildRuns(
      [
        runRec('a/report.log', printed, 1),
        runRec('b/report.log', { ...printed, tp: 2 }, 1),
        configRec('c/serve.log', 'server-log', { ...serverFields, tp: 4 }, 2),
        runRec('c/report.log', { ...printed, model: MODEL }, 1),
      ],
      new DiagnosticCollector(),
    );
    expect(rows.map((r) => [r.source_file, r.output_throughput_per_gpu])).toEqual([
      ['a/report.log', 5530.7382],
      ['b/report.log', 2765.3691],
      ['c/report.log', 1382.68455],
    ]);
  });
});

describe('buildRuns: values that name one thing two ways', () => {
  it("takes a ShareGPT file for the sharegpt dataset and ModelScope's `___` for a model's `.`: no conflict", () => {
    const sink = new DiagnosticCollector();
    buildRuns(
      [
        runRec('x/run.log', { ...bench, model: '/models/Qwen/Qwen2.5-7B-Instruct', dataset: 'sharegpt' }, 9),
        configRec('x/serve.log', 'server-log', { ...serverFields, model: '/cache/modelscope/Qwen/Qwen2___5-7B-Instruct', dataset: 'ShareGPT_V3_unfiltered_cleaned_split.json' }, 2),
      ],
      sink,
    );
    expect(sink.list().filter((d) => d.code === 'config/conflict')).toEqual([]);
  });

  it("takes TensorRT-LLM's `FP8` and `NVFP4` for vLLM's `fp8` and `nvfp4`: lower case, no conflict", () => {
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(
      [
        runRec('x/run.log', { ...bench, quantization: 'FP8', kv_cache_dtype: 'FP8', dtype: 'BFloat16' }, 9),
        configRec('x/serve.log', 'server-log', { ...serverFields, quantization: 'fp8' }, 2),
        runRec('y/report.log', { ...bench, quantization: 'NVFP4', kv_cache_dtype: 'W4A16_AWQ' }, 3),
      ],
      sink,
    );
    expect(rows.map((r) => [r.quantization, r.kv_cache_dtype, r.dtype])).toEqual([
      ['fp8', 'fp8', 'bfloat16'],
      ['nvfp4', 'w4a16_awq', null],
    ]);
    expect(sink.list().filter((d) => d.code === 'config/conflict')).toEqual([]);
  });
});
