import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { ConfigRecord, RunRecord } from '../../src/core/records.js';
import { asRelPath, type FieldValue } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { toRunRows } from '../../src/normalize/runs-table.js';
import { type FileReport, parseSource, type ParsedRecord } from '../../src/pipeline/process-file.js';
import { withoutFieldLines } from '../../src/pipeline/without-field-lines.js';
import { GRAMMARS } from '../../grammars/index.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { timelineRec } from '../helpers/records.js';

const SUITE = path.join(FIXTURES, '_suites/writeup-optimization-ladder');
const FILE = 'optimizing-latency.md';

/**
 * The pipeline's records for the write-up. With `serverStats`, the vLLM server-log grammar also
 * reads the pasted stats lines (its detect declines files that hold result blocks, so the
 * pipeline alone does not run it on a write-up today).
 */
function rowsOf(file: string, serverStats = false) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(readFileSync(path.join(SUITE, file)), asRelPath(file), sink);
  if (!source) return { rows: [], diagnostics: sink.list() };
  const records = parseSource(source, sink).records.filter((r) => !serverStats || r.format !== 'vllm-server');
  if (serverStats) {
    for (const record of GRAMMARS['vllm-server'].parse(source, new DiagnosticCollector())) {
      if (record.kind === 'timeline') records.push({ format: 'vllm-server', record });
    }
  }
  return { rows: toRunRows(records, sink), diagnostics: sink.list() };
}

const COLUMNS = [
  'label', 'engine', 'client', 'backend', 'model', 'draft_model', 'spec_method', 'num_spec_tokens', 'tp', 'quantization',
  'kv_cache_dtype', 'max_num_seqs', 'enable_prefix_caching', 'attention_backend', 'dataset', 'num_prompts', 'max_concurrency',
  'input_len', 'output_len', 'config_sources',
] as const;
const SPEC = ['spec_acceptance_rate', 'spec_acceptance_length', 'spec_system_efficiency'] as const;

const M = 'acme-ai/Falcon-Lite-8B-Instruct';
const CLIENT = { client: 'vllm-bench-serve', dataset: 'random', num_prompts: 64, input_len: 1024, output_len: 256 };
/** config_sources without server-log entries: whether the pipeline reads pasted log lines is the log grammar's call. */
const withoutStats = (v: unknown) => (JSON.parse(String(v)) as string[]).filter((s) => !s.startsWith('vllm-server:'));
const src = (...s: string[]) => JSON.stringify(s.map((x) => x.replace('@', `:${FILE}:`)));

/**
 * Written by hand from the write-up: one entry per pasted result block, in file order. A server
 * launched with no speculative flag serves without it (`spec_method: 'none'`).
 */
const EXPECTED: Record<string, unknown>[] = [
  { label: 'BS=1', engine: 'vllm', ...CLIENT, model: M, spec_method: 'none', max_num_seqs: 64, enable_prefix_caching: false, max_concurrency: 1,
    config_sources: src('vllm-bench-serve@23', 'launch-command@12', 'bench-command@16') },
  { label: 'BS=16', engine: 'vllm', ...CLIENT, model: M, spec_method: 'none', max_num_seqs: 64, enable_prefix_caching: false, max_concurrency: 16,
    config_sources: src('vllm-bench-serve@51', 'launch-command@12', 'bench-command@45') },
  { label: 'Step 1: SGLang instead of vLLM', engine: 'sglang', ...CLIENT, backend: 'sglang', model: M, spec_method: 'none', tp: 1, max_num_seqs: 64, max_concurrency: 1,
    config_sources: src('vllm-bench-serve@82', 'launch-command@73', 'bench-command@78') },
  { label: 'FP8, BS=1', engine: 'vllm', ...CLIENT, model: M, spec_method: 'none', quantization: 'fp8', kv_cache_dtype: 'fp8', max_num_seqs: 64,
    enable_prefix_caching: false, max_concurrency: 1, config_sources: src('vllm-bench-serve@111', 'launch-command@104', 'bench-command@105') },
  { label: 'Step 3: FlashInfer attention backend', engine: 'vllm', ...CLIENT, model: M, spec_method: 'none', quantization: 'fp8', kv_cache_dtype: 'fp8',
    max_num_seqs: 64, enable_prefix_caching: false, attention_backend: 'FLASHINFER', max_concurrency: 1,
    config_sources: src('vllm-bench-serve@140', 'launch-command@133', 'bench-command@135') },
  { label: 'EAGLE-3, K=3', engine: 'vllm', ...CLIENT, model: M, draft_model: 'acme-ai/Falcon-Lite-8B-EAGLE3', spec_method: 'eagle3',
    num_spec_tokens: 3, quantization: 'fp8', max_num_seqs: 64, max_concurrency: 1, spec_acceptance_rate: 0.469, spec_acceptance_length: 2.41,
    config_sources: src('vllm-bench-serve@176', 'launch-command@162', 'bench-command@164', 'vllm-server@171') },
  { label: 'draft model, K=4', engine: 'vllm', ...CLIENT, model: M, draft_model: 'acme-ai/Falcon-Lite-1B-Instruct', spec_method: 'draft_model',
    num_spec_tokens: 4, quantization: 'fp8', max_num_seqs: 64, max_concurrency: 1, spec_acceptance_rate: 0.612, spec_system_efficiency: 0.451,
    config_sources: src('vllm-bench-serve@212', 'launch-command@198', 'bench-command@202', 'vllm-server@207') },
  // The summary section has no command: nothing is borrowed from the sections above it.
  { label: 'Summary', client: 'vllm-bench-serve', max_concurrency: 1, config_sources: src('vllm-bench-serve@236') },
];

describe('write-up: an optimization ladder pasting commands, log lines and result blocks', () => {
  const { rows, diagnostics } = rowsOf(FILE);

  it('gives one run per pasted result block', () => {
    expect(rows.map((r) => r.source_line)).toEqual([23, 51, 82, 111, 140, 176, 212, 236]);
  });

  it.each(EXPECTED.map((e, i) => ({ i, e })))('run $i takes its label and configuration from its own section', ({ i, e }) => {
    const row = rows[i] ?? {};
    const got = Object.fromEntries(COLUMNS.map((c) => [c, c === 'config_sources' ? withoutStats(row[c]) : (row[c] ?? null)]));
    const want = Object.fromEntries(COLUMNS.map((c) => [c, c === 'config_sources' ? withoutStats(e[c]) : (e[c] ?? null)]));
    expect(got).toEqual(want);
  });

  it.each(EXPECTED.map((e, i) => ({ i, e })))('run $i takes the speculative rates pasted above it, and only those', ({ i, e }) => {
    const row = rowsOf(FILE, true).rows[i] ?? {};
    const got = Object.fromEntries([...SPEC, 'config_sources'].map((c) => [c, row[c] ?? null]));
    const want = Object.fromEntries([...SPEC, 'config_sources'].map((c) => [c, e[c] ?? null]));
    expect(got).toEqual(want);
  });

  it('reports no conflict: every command agrees with its block', () => {
    expect(diagnostics.filter((d) => d.code === 'config/conflict')).toEqual([]);
  });
});

const at = (line: number) => ({ file: asRelPath('w.md'), line, column: 1 });
const run = (line: number, fields: RunRecord['fields'], label: string | null = null): ParsedRecord => ({
  format: 'vllm-bench-serve',
  record: { kind: 'run', at: at(line), label, complete: true, fields, lines: {} },
});
const config = (line: number, origin: ConfigRecord['origin'], fields: ConfigRecord['fields']): ParsedRecord => ({
  format: 'launch-command',
  record: { kind: 'config', at: at(line), origin, fields, lines: {} },
});
const stats = (line: number, fields: Record<string, FieldValue>): ParsedRecord => ({ ...timelineRec('w.md', fields, line), format: 'vllm-server' });

describe('attaching in one file (synthetic records)', () => {
  it('keeps the run value on a disagreement and warns naming both sources', () => {
    const sink = new DiagnosticCollector();
    const [row] = toRunRows([config(2, 'bench-command', { client: 'vllm-bench-serve', max_concurrency: 8 }), run(5, { max_concurrency: 4 })], sink);
    expect(row?.max_concurrency).toBe(4);
    expect(sink.list().map((d) => d.message)).toEqual([
      'max_concurrency: 4 (vllm-bench-serve:w.md:5) disagrees with 8 (bench-command:w.md:2); kept the first',
    ]);
  });

  it("gives an offline benchmark's run its own command's settings, not those of a server launched in the same file", () => {
    const sink = new DiagnosticCollector();
    const [offline, served] = toRunRows(
      [
        config(1, 'launch-command', { engine: 'sglang', model: 'm', chunked_prefill_size: 32768, max_num_seqs: 32, command: 'python -m sglang.launch_server --model m' }),
        config(3, 'bench-command', { client: 'sglang-bench-one-batch', engine: 'sglang', model: 'm', chunked_prefill_size: 8192, command: 'python -m sglang.bench_one_batch --model-path m' }),
        run(6, { client: 'sglang-bench-one-batch', batch_size: 1 }),
        run(9, { client: 'sglang-bench-serving', max_concurrency: 8 }),
      ],
      sink,
    );
    expect([offline?.chunked_prefill_size, offline?.max_num_seqs ?? null, offline?.config_sources]).toEqual([8192, null, JSON.stringify(['vllm-bench-serve:w.md:6', 'bench-command:w.md:3'])]);
    // a serving benchmark's run takes the server launched above it
    expect(served?.max_num_seqs).toBe(32);
    expect(sink.list().filter((d) => d.code === 'config/conflict' && d.line === 6)).toEqual([]);
  });

  it('gives a run captioned with one engine that engine\'s launch above it, when another engine\'s came later', () => {
    const launches = [
      config(2, 'launch-command', { engine: 'vllm', model: 'm', tp: 4, command: 'vllm serve m -tp 4' }),
      config(5, 'launch-command', { engine: 'sglang', model: 'm', tp: 4, enable_torch_compile: true, command: 'python -m sglang.launch_server --model-path m' }),
    ];
    const [vllm, sglang, both] = toRunRows([...launches, run(10, {}, 'vLLM results'), run(20, {}, 'SGLang results'), run(30, {}, 'vLLM vs SGLang')]);
    expect([vllm?.engine, vllm?.enable_torch_compile ?? null]).toEqual(['vllm', null]);
    expect([sglang?.engine, sglang?.enable_torch_compile]).toEqual(['sglang', true]);
    // a label naming both engines, or none, takes the nearest launch
    expect(both?.engine).toBe('sglang');
    // and one naming an engine no launch above ran takes none
    const [alone] = toRunRows([launches[0] as ParsedRecord, run(10, {}, 'SGLang results')]);
    expect([alone?.engine ?? null, alone?.tp ?? null]).toEqual([null, null]);
  });

  it('takes no request count from a command that asked for fewer requests than the run completed, and says so', () => {
    const sink = new DiagnosticCollector();
    const [row] = toRunRows([config(2, 'bench-command', { client: 'vllm-bench-serve', num_prompts: 20, max_concurrency: 1 }), run(6, { completed: 200, failed: 0, max_concurrency: 8 })], sink);
    expect(row?.num_prompts ?? null).toBeNull();
    expect(sink.list().map((d) => d.message)).toEqual([
      'max_concurrency: 8 (vllm-bench-serve:w.md:6) disagrees with 1 (bench-command:w.md:2); kept the first',
      'num_prompts: at least 200 (the requests completed, vllm-bench-serve:w.md:6) disagrees with 20 (bench-command:w.md:2); kept the first',
    ]);
  });

  it('gives a run no launch listening on another port than its benchmark aimed at', () => {
    const [remote, local] = toRunRows([
      config(2, 'launch-command', { engine: 'vllm', model: 'm-w8a8', tp: 4, server_port: 8000, command: 'vllm serve m-w8a8 -tp 4' }),
      config(4, 'bench-command', { client: 'vllm-bench-serve', model: 'm', target_port: 7013, command: 'vllm bench serve --model m --host 10.0.0.2 --port 7013' }),
      run(6, {}),
      config(8, 'bench-command', { client: 'vllm-bench-serve', model: 'm-w8a8', target_port: 8000, command: 'vllm bench serve --model m-w8a8 --port 8000' }),
      run(10, {}),
    ]);
    expect([remote?.model, remote?.tp ?? null, remote?.engine ?? null]).toEqual(['m', null, null]);
    expect([local?.model, local?.tp, local?.engine]).toEqual(['m-w8a8', 4, 'vllm']);
  });

  it("takes the nearest command whose section holds the run, further up than one whose section ended", () => {
    const [row] = toRunRows([
      config(2, 'launch-command', { engine: 'vllm', model: 'm', tp: 8, section_start: 1, section_end: 40, command: 'vllm serve m -tp 8' }),
      config(12, 'launch-command', { engine: 'vllm', model: 'm', tp: 2, section_start: 10, section_end: 20, command: 'vllm serve m -tp 2' }),
      run(30, {}),
    ]);
    expect(row?.tp).toBe(8);
  });

  it('labels an unlabelled run with the nearest command and never attaches unresolved $VAR text', () => {
    const [row] = toRunRows([
      config(1, 'launch-command', { engine: 'vllm', model: 'm', command: 'vllm serve m' }),
      config(3, 'bench-command', { max_concurrency: '$C', max_concurrency_values: [1, 2], command: 'vllm bench serve --max-concurrency $C --random-input-len $LEN' }),
      run(6, {}),
    ]);
    expect(row?.label).toBe('--random-input-len $LEN');
    expect(row?.max_concurrency ?? null).toBeNull();
    expect(row?.max_concurrency_values).toEqual([1, 2]);
    expect(row?.command ?? null).toBeNull();
  });

  it('labels runs of a command loop with the flags that differ between the commands, and not with the load', () => {
    const bench = (line: number, c: number, len = 512) => config(line, 'bench-command', { command: `vllm bench serve --model m --host 0.0.0.0 --max-concurrency ${c} --num-prompts ${c * 10} --random-input-len ${len}` });
    const rows = toRunRows([bench(1, 1), run(3, {}), bench(5, 4, 2048), run(7, {}), run(9, {}, 'own label')]);
    expect(rows.map((r) => r.label)).toEqual(['--random-input-len 512', '--random-input-len 2048', 'own label']);
    // a sweep of the load alone: one configuration, which its commands do not name
    const sweep = toRunRows([bench(1, 1), run(3, {}), bench(5, 4), run(7, {})]);
    expect(sweep.map((r) => r.label ?? null)).toEqual([null, null]);
  });

  it('stops at the end of a section and takes stats only from between the previous run and this one', () => {
    const rows = toRunRows([
      config(2, 'launch-command', { engine: 'sglang', section_start: 1, section_end: 10 }),
      stats(4, { spec_acceptance_rate: 0.5 }),
      run(6, {}),
      run(8, {}),
      run(12, {}),
    ]);
    expect(rows.map((r) => [r.engine, r.spec_acceptance_rate])).toEqual([
      ['sglang', 0.5],
      ['sglang', null],
      [null, null],
    ]);
  });

  it("weights the rates of a run's stats lines by the tokens each drafted, when every line counts them", () => {
    const v1 = (line: number, rate: number, length: number, positions: number[], drafted: number) =>
      stats(line, { spec_acceptance_rate: rate, spec_acceptance_length: length, spec_per_position_acceptance: positions, spec_draft_tokens: drafted });
    const rows = toRunRows([
      v1(1, 0.2, 1.6, [0.3, 0.1], 100), // the previous run's
      run(2, {}),
      v1(3, 0.5, 2, [0.7, 0.3], 3000),
      v1(4, 0.8, 2.6, [0.9, 0.7], 1000),
      // an interval with nothing drafted weighs nothing
      v1(5, 0, 1, [0, 0], 0),
      run(6, {}),
    ]);
    expect(rows[1]).toMatchObject({ spec_acceptance_rate: 0.575, spec_acceptance_length: 2.15, spec_per_position_acceptance: [0.75, 0.4] });
    expect(JSON.parse(String(rows[1]?.config_sources))).toEqual(['vllm-bench-serve:w.md:6', 'vllm-server:w.md:3-5']);
    // a server restarted after the previous run: the old one's last lines are not this run's
    const restarted = toRunRows([run(2, {}), v1(3, 0.2, 1.6, [0.3, 0.1], 3000), config(4, 'server-log', { engine: 'vllm' }), v1(5, 0.8, 2.6, [0.9, 0.7], 1000), run(6, {})]);
    expect(restarted[1]).toMatchObject({ spec_acceptance_rate: 0.8, spec_acceptance_length: 2.6 });
  });

  it('takes the nearest line when a line has no count, or counts since the server started (V0)', () => {
    const counted = stats(3, { spec_acceptance_rate: 0.5, spec_draft_tokens: 3000 });
    expect(toRunRows([counted, stats(4, { spec_acceptance_rate: 0.8 }), run(6, {})])[0]?.spec_acceptance_rate).toBe(0.8);
    const v0 = (line: number, rate: number, drafted: number) => stats(line, { spec_acceptance_rate: rate, spec_system_efficiency: 0.4, spec_draft_tokens: drafted });
    expect(toRunRows([v0(3, 0.5, 3000), v0(4, 0.6, 9000), run(6, {})])[0]?.spec_acceptance_rate).toBe(0.6);
  });

  it("weights SGLang's accept lengths by the requests running, and takes a V1 rate from the tokens counted, not the rounded percentages", () => {
    // SGLang's `accept len` is over its interval's request-steps: a batch of 3 weighs three times one of 1
    const sglang = (line: number, running: number, length: number) => stats(line, { running, spec_acceptance_length: length });
    expect(toRunRows([sglang(3, 1, 3), sglang(4, 3, 2), run(6, {})])[0]?.spec_acceptance_length).toBe(2.25);
    // a stretch of idle intervals only (nothing drafted, `nan%`) says nothing: not the nearest line's length 1
    expect(toRunRows([stats(3, { running: 0, spec_acceptance_length: 1, spec_draft_tokens: 0 }), stats(4, { running: 0, spec_acceptance_length: 1, spec_draft_tokens: 0 }), run(6, {})])[0]?.spec_acceptance_length ?? null).toBeNull();
    // vLLM's idle interval counts requests running too, and still weighs by what it drafted: nothing
    expect(toRunRows([stats(3, { running: 2, spec_acceptance_length: 3, spec_draft_tokens: 10 }), stats(4, { running: 0, spec_acceptance_length: 1, spec_draft_tokens: 0 }), run(6, {})])[0]?.spec_acceptance_length).toBe(3);
    // 1 of 3 and 2 of 6 drafted tokens accepted, printed 33.3 %: a third of them in all
    const v1 = (line: number, accepted: number, drafted: number) => stats(line, { spec_acceptance_rate: 0.333, spec_draft_tokens: drafted, spec_accepted_tokens: accepted });
    expect(toRunRows([v1(3, 1, 3), v1(4, 2, 6), run(6, {})])[0]?.spec_acceptance_rate).toBe(0.333333);
  });

  it("takes a V0 server's earlier runs out of its counts since start, unless the server started again between", () => {
    // `Speculative metrics:` of vLLM V0: counts since the server started, K = 4
    const v0 = (line: number, accepted: number, drafted: number, emitted: number, k = 4) =>
      stats(line, { spec_acceptance_rate: Number((accepted / drafted).toFixed(3)), spec_system_efficiency: 0.5, num_spec_tokens: k, spec_accepted_tokens: accepted, spec_draft_tokens: drafted, spec_emitted_tokens: emitted });
    const records = [v0(3, 600, 1000, 700), run(5, {}), v0(7, 1300, 2000, 1500), v0(8, 2100, 3000, 2400), run(10, {})];
    const rows = toRunRows(records);
    // the second run: (2100 − 600) / (3000 − 1000) accepted, (2400 − 700) / (2000 / 4 × 5) emitted
    expect(rows.map((r) => [r.spec_acceptance_rate, r.spec_system_efficiency])).toEqual([
      [0.6, 0.5],
      [0.75, 0.68],
    ]);
    expect(JSON.parse(String(rows[1]?.config_sources))).toEqual(['vllm-bench-serve:w.md:10', 'vllm-server:w.md:3-8']);
    // a server started between the two lines: its counts are its own since then
    const restarted = toRunRows([...records, config(6, 'server-log', { engine: 'vllm' })]);
    expect(restarted[1]?.spec_acceptance_rate).toBe(0.7);
    // a write-up: the line pasted in another section says nothing of this one's server
    const sections = toRunRows([
      config(1, 'launch-command', { engine: 'vllm', section_start: 1, section_end: 5 }),
      v0(3, 600, 1000, 700),
      run(4, {}),
      config(7, 'launch-command', { engine: 'vllm', section_start: 6, section_end: 12 }),
      v0(9, 2100, 3000, 2400),
      run(11, {}),
    ]);
    expect(sections.map((r) => r.spec_acceptance_rate)).toEqual([0.6, 0.7]);
    // a line counting with another K is another server's (relaunched with no banner between): its own counts
    const relaunched = toRunRows([v0(3, 600, 1000, 700), run(5, {}), v0(8, 2100, 3000, 2400, 10), run(10, {})]);
    expect(relaunched[1]?.spec_acceptance_rate).toBe(0.7);
  });

  it("gives a stats line printed inside a run's block (a tee'd log flushing the block as the server logs) to that run, not the next", () => {
    const block = (line: number, last: number): ParsedRecord => {
      const r = run(line, { completed: 100, p99_itl_ms: 9 });
      return { ...r, record: { ...(r.record as RunRecord), lines: { completed: line + 1, p99_itl_ms: last } } };
    };
    const records = [stats(3, { spec_acceptance_rate: 0.5 }), block(5, 20), stats(12, { spec_acceptance_rate: 0.7 }), stats(23, { spec_acceptance_rate: 0.9 }), block(25, 40)];
    expect(toRunRows(records).map((r) => r.spec_acceptance_rate)).toEqual([0.7, 0.9]);
    // a pooled scan drops the per-field lines, not where a run ends
    const pooled = withoutFieldLines({ report: {} as FileReport, records, diagnostics: [] }).records;
    expect(pooled.map((r) => (r.record.kind === 'run' ? Object.keys(r.record.lines).length : 0))).toEqual([0, 0, 0, 0, 0]);
    expect(toRunRows(pooled).map((r) => r.spec_acceptance_rate)).toEqual([0.7, 0.9]);
  });

  it('attaches no rate to a run that measured its own, and compares none', () => {
    const sink = new DiagnosticCollector();
    const rows = toRunRows([stats(3, { spec_acceptance_rate: 0.75, spec_acceptance_length: 4 }), run(6, { spec_acceptance_rate: 0.6875 })], sink);
    expect([rows[0]?.spec_acceptance_rate, rows[0]?.spec_acceptance_length ?? null]).toEqual([0.6875, null]);
    expect(sink.list()).toEqual([]);
  });

  it('finds each run its own command, section and stats in a file of hundreds, whatever order the records come in', () => {
    // sections of 10 lines: a launch command, stats, a bench command, a run; every fifth section
    // has its commands after its run (not taken) and no stats, the section before it stats after
    // its run (not taken either: another section's), and every seventh section no command (nothing borrowed)
    const records: ParsedRecord[] = [];
    const expected: [number | null, string | null, number | null][] = [];
    for (let k = 0; k < 300; k++) {
      const s0 = k * 10 + 1;
      const section = { section_start: s0, section_end: s0 + 9 };
      const late = k % 5 === 4;
      if (k % 7 !== 6) {
        records.push(config(late ? s0 + 8 : s0 + 1, 'launch-command', { engine: `e${k}`, ...section }));
        records.push(config(late ? s0 + 9 : s0 + 3, 'bench-command', { max_concurrency: k, command: `vllm bench serve --max-concurrency ${k} --random-input-len ${k}`, ...section }));
      }
      if (!late) records.push(stats(s0 + 2, { spec_acceptance_rate: k / 1000 }));
      records.push(run(s0 + 5, {}));
      if (k % 5 === 3) records.push(stats(s0 + 7, { spec_acceptance_rate: 9 }));
      const taken = k % 7 !== 6 && !late;
      // a section is known by its commands: one without takes the stats line between the previous run and its own
      expected.push([taken ? k : null, taken ? `e${k}` : null, !late ? k / 1000 : k % 7 === 6 ? 9 : null]);
    }
    // two bench commands on one line: the first given is taken
    records.push(config(3001, 'bench-command', { max_concurrency: 1, command: 'a --max-concurrency 1' }), config(3001, 'bench-command', { max_concurrency: 2, command: 'a --max-concurrency 2' }));
    records.push(run(3002, {}));
    for (const [given, first] of [[records, 1], [[...records].reverse(), 2]] as const) {
      const rows = toRunRows(given).sort((a, b) => Number(a.source_line) - Number(b.source_line));
      expect(rows.map((r) => [r.max_concurrency ?? null, r.engine ?? null, r.spec_acceptance_rate ?? null])).toEqual([...expected, [first, null, null]]);
      expect(rows[0]?.label).toBe('--random-input-len 0');
    }
  });
});
