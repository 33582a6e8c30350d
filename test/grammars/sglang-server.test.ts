import { seriesEntries } from '../../src/core/timeline-series.js';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/sglang-server/index.js';
import { splitPrefix } from '../../grammars/sglang-server/prefix.js';
import { commonStatsLine, parseStatsLine, parseStatsLineWithGrammar } from '../../grammars/sglang-server/stats-parser.js';
import fc from 'fast-check';
import { expectAgreesWhereItAnswers } from '../helpers/shortcut.js';

const LOG = [
  '[2026-01-02 03:04:05] server_args=ServerArgs(model_path=\'m/a\', tp_size=2, speculative_algorithm=\'EAGLE3\', speculative_num_steps=3)',
  '[2026-01-02 03:04:06] INFO:     127.0.0.1:1 - "POST /generate HTTP/1.1" 200 OK',
  '[01-02 03:04:07 DP1 TP3] Decode batch, #running-req: 4, #token: 10, token usage: 0.50, accept len: 2.50, accept rate: 0.75, cuda graph: True, gen throughput (token/s): 12.00, #queue-req: 1',
  'new fill batch. #seq: 1. #cached_token: 5. #new_token: 2. #remaining_req: 3. #running_req: 4. tree_cache_hit_rate: 12.34%.',
];

describe('sglang-server', () => {
  it('splits every prefix shape', () => {
    expect(splitPrefix('[2025-03-14 02:16:14 TP0] Decode batch.')).toMatchObject({ year: '2025', date: '03-14', clock: '02:16:14', ranks: { tp_rank: 0 }, message: 'Decode batch.' });
    expect(splitPrefix('[04-08 14:05:21 TP0 EP2] x')).toMatchObject({ year: null, date: '04-08', ranks: { tp_rank: 0, ep_rank: 2 }, message: 'x' });
    expect(splitPrefix('[2026-04-05 20:02:51] INFO server_args.py:1565: server_args=ServerArgs()')).toMatchObject({ level: 'INFO', message: 'server_args=ServerArgs()' });
    expect(splitPrefix('Decode batch. #running-req: 1')).toMatchObject({ date: null, message: 'Decode batch. #running-req: 1' });
    // builds of about Aug–Oct 2024 (and some 2026 ones) print a time of day with no date
    expect(splitPrefix('[04:40:55 TP0] Decode batch. #running-req: 2')).toMatchObject({ year: null, date: null, clock: '04:40:55', ranks: { tp_rank: 0 }, message: 'Decode batch. #running-req: 2' });
    expect(splitPrefix('[03:51:54] Decode batch, #running-req: 6')).toMatchObject({ date: null, clock: '03:51:54', ranks: {}, message: 'Decode batch, #running-req: 6' });
  });

  it('keeps a date-less clock as `time_of_day` (packed), never as a `time` it cannot date', () => {
    const lines = ['[04:40:55 TP0] Decode batch. #running-req: 2, #token: 4078, token usage: 0.00, gen throughput (token/s): 447.31, #queue-req: 0'];
    const records = grammar.parse({ path: asRelPath('s.log'), lines }, new DiagnosticCollector());
    const series = records.find((r) => r.kind === 'timeline');
    expect(series?.kind === 'timeline' && series.series.columns.get('time_of_day')).toMatchObject({ kind: 'stamp', shape: 'clock' });
    const rows = records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(rows[0]?.fields).toMatchObject({ time_of_day: '04:40:55', running: 2, gen_throughput: 447.31 });
    expect(rows[0]?.fields.time).toBeUndefined();
  });

  it('parses keys with spaces, units and the 2024 period separators', () => {
    const s = parseStatsLine('Decode batch[7], #running-req: 68, full token usage: 0.49, gen throughput (token/s): 2499.67, #queue-req: 0, ');
    expect(s.head).toBe('Decode batch[7]');
    expect([...s.fields]).toEqual([['#running-req', '68'], ['full token usage', '0.49'], ['gen throughput (token/s)', '2499.67'], ['#queue-req', '0']]);
    const old = parseStatsLine('new fill batch. #seq: 1. tree_cache_hit_rate: 80.83%.');
    expect([...old.fields]).toEqual([['#seq', '1'], ['tree_cache_hit_rate', '80.83%']]);
  });

  it('turns stats lines into timeline rows with fractions and borrowed years', () => {
    const sink = new DiagnosticCollector();
    const records = grammar.parse({ path: asRelPath('s.log'), lines: LOG }, sink);
    const rows = records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(rows[0]?.fields).toMatchObject({ time: '2026-01-02T03:04:07', dp_rank: 1, tp_rank: 3, running: 4, waiting: 1, kv_cache_usage: 0.5, spec_acceptance_length: 2.5, spec_acceptance_rate: 0.75, gen_throughput: 12, graph: true });
    expect(rows[1]?.fields).toMatchObject({ prefix_cache_hit_rate: 0.1234, waiting: 3, running: 4, new_tokens: 2, cached_tokens: 5 });
    const config = records.find((r) => r.kind === 'config');
    expect(config?.kind === 'config' && config.fields).toMatchObject({ engine: 'sglang', model: 'm/a', tp: 2, spec_method: 'eagle3', spec_num_steps: 3 });
  });

  it('streams the same records as parse, skipping lines without an anchor', () => {
    const sink = new DiagnosticCollector();
    const parser = grammar.lines?.(asRelPath('s.log'), sink);
    LOG.forEach((l, i) => {
      if (grammar.anchors?.some((a) => l.includes(a))) parser?.line(l, i + 1);
    });
    expect(JSON.stringify(parser?.finish())).toBe(JSON.stringify(grammar.parse({ path: asRelPath('s.log'), lines: LOG }, new DiagnosticCollector())));
    expect(grammar.anchors?.some((a) => LOG[1]?.includes(a))).toBe(false);
  });

  it('reads the 2026 MFU estimates, fwd occupancy as a fraction, HiSparse pools and PD queue counts', () => {
    const lines = [
      '[2026-05-11 09:14:02 TP0] Prefill batch, #new-seq: 4, #new-token: 16384, #cached-token: 2048, token usage: 0.21, #running-req: 12, #queue-req: 3, #pending-token: 40960, #bootstrap-req: 3, #inflight-req: 1, cuda graph: False, input throughput (token/s): 28104.55, est. prefill TFLOPS/s (per GPU): 412.37, fwd occupancy: 91.42%',
      '[2026-05-11 09:14:05 TP0] Decode batch, #running-req: 64, #token: 90112, token usage: 0.43, musa graph: True, gen throughput (token/s): 3120.44, #queue-req: 0, est. decode TFLOPS/s (per GPU): 96.18, est. read BW (GB/s per GPU): 2210.53, est. write BW (GB/s per GPU): 14.02, fwd occupancy: nan%',
      '[2026-06-03 17:21:44 TP0] Decode batch, #running-req: 48, #gpu token: 61440, gpu token usage: 0.62, #cpu token: 1572864, cpu token usage: 0.38, cuda graph: True, gen throughput (token/s): 1840.27, #queue-req: 1',
      '[2026-06-03 17:21:48 TP0] Decode batch, #running-req: 48, #full token: 9000, full token usage: 0.30, #swa token: 100, swa token usage: 0.10, #gpu token: 62208, gpu token usage: 0.63, #cpu token: 1574400, cpu token usage: 0.38, cuda graph: True, gen throughput (token/s): 1836.05, #queue-req: 0',
    ];
    const sink = new DiagnosticCollector();
    const records = grammar.parse({ path: asRelPath('s.log'), lines }, sink);
    const rows = records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(rows[0]?.fields).toMatchObject({ est_prefill_tflops_per_gpu: 412.37, fwd_occupancy: 0.9142, bootstrap_req: 3, inflight_req: 1, prompt_throughput: 28104.55 });
    expect(rows[1]?.fields).toMatchObject({ est_decode_tflops_per_gpu: 96.18, est_read_bw_gb_s_per_gpu: 2210.53, est_write_bw_gb_s_per_gpu: 14.02, graph: true, waiting: 0 });
    expect(rows[1]?.fields.fwd_occupancy ?? null).toBeNull();
    // the GPU pool of a HiSparse line is its device buffer: its usage is the KV cache usage
    expect(rows[2]?.fields).toMatchObject({ kv_cache_usage: 0.62, gpu_token_usage: 0.62, num_gpu_tokens: 61440, cpu_kv_cache_usage: 0.38, num_cpu_tokens: 1572864 });
    // … unless the line prints the full pool's usage too
    expect(rows[3]?.fields).toMatchObject({ kv_cache_usage: 0.3, gpu_token_usage: 0.63, swa_token_usage: 0.1 });
    expect(Object.keys(rows[0]?.fields ?? {}).filter((k) => /bootstrap|bw|tflops|occupancy/.test(k)).sort()).toEqual(['bootstrap_req', 'est_prefill_tflops_per_gpu', 'fwd_occupancy']);
    expect(sink.list()).toEqual([]);
  });

  it("reads the lines of engines run as Ray actors (Ray's `(SGLangEngine pid=N)` before the prefix), each engine's by its pid", () => {
    const lines = [
      '(SGLangEngine pid=35555) [2025-10-31 03:45:20 TP0] Decode batch [51341], #running-req: 317, #token: 1094261, token usage: 0.67, cuda graph: True, gen throughput (token/s): 14806.57, #queue-req: 0,',
      '(SGLangEngine pid=111711, ip=10.15.36.1) [2025-10-31 03:45:20 TP0] Decode batch [39913], #running-req: 78, #token: 400000, token usage: 0.27, cuda graph: True, gen throughput (token/s): 7269.16, #queue-req: 0,',
    ];
    expect(grammar.detect({ path: asRelPath('ray.log'), head: lines.join('\n') }).score).toBeGreaterThan(0);
    const sink = new DiagnosticCollector();
    const rows = grammar.parse({ path: asRelPath('ray.log'), lines }, sink).flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(rows.map((r) => [r.fields.pid, r.fields.tp_rank, r.fields.running, r.fields.gen_throughput, r.fields.kv_cache_usage, r.fields.time])).toEqual([
      [35555, 0, 317, 14806.57, 0.67, '2025-10-31T03:45:20'],
      [111711, 0, 78, 7269.16, 0.27, '2025-10-31T03:45:20'],
    ]);
    expect(sink.list()).toEqual([]);
  });

  it("reads a line's trailing `timestamp:` as one value: the row's time where no prefix gives one, never columns of its own", () => {
    const sink = new DiagnosticCollector();
    const lines = [
      '[2025-07-18 15:32:52 TP0] Prefill batch. #new-seq: 1, #new-token: 2192, #cached-token: 35, #token: 35, token usage: 0.00, #running-req: 0, #queue-req: 0, timestamp: 2025-07-18T15:32:52.498932',
      'Decode batch. #running-req: 1, #token: 2266, token usage: 0.00, cuda graph: True, gen throughput (token/s): 3.13, #queue-req: 0, timestamp: 2025-07-18T15:32:54.159394',
    ];
    const records = grammar.parse({ path: asRelPath('s.log'), lines }, sink);
    const rows = records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(rows.map((r) => [r.fields.time, r.fields.new_tokens ?? r.fields.gen_throughput])).toEqual([
      ['2025-07-18T15:32:52', 2192],
      ['2025-07-18T15:32:54.159394', 3.13],
    ]);
    expect(rows.flatMap((r) => Object.keys(r.fields)).filter((k) => /^t\d|timestamp/.test(k))).toEqual([]);
  });

  it('records a Prefill OOM and a traceback as failures of a failed start', () => {
    const sink = new DiagnosticCollector();
    const lines = ['[2025-01-01 00:00:00 TP0] Prefill out of memory. Try to lower your batch size.', '[2025-01-01 00:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):', '  File "x.py", line 1, in f', 'RuntimeError: CUDA error: an illegal memory access was encountered'];
    const failures = grammar.parse({ path: asRelPath('s.log'), lines }, sink).filter((r) => r.kind === 'failure');
    expect(failures.map((f) => f.kind === 'failure' && [f.at.line, f.exception])).toEqual([[1, 'PrefillOutOfMemory'], [4, 'RuntimeError']]);
    expect(sink.list().map((d) => d.code).sort()).toEqual(['log/crash', 'log/crash', 'log/failed-start']);
  });

  it('takes a crash after a stats line for one while serving, not a failed start, ready line or not', () => {
    const sink = new DiagnosticCollector();
    const lines = [
      "[2025-01-01 00:00:00] server_args=ServerArgs(model_path='m/a', tp_size=1)",
      '[2025-01-01 00:00:05 TP0] Decode batch. #running-req: 2, #token: 400, token usage: 0.01, gen throughput (token/s): 80.00, #queue-req: 0',
      '[2025-01-01 00:00:06 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "x.py", line 1, in f',
      'RuntimeError: CUDA error: an illegal memory access was encountered',
    ];
    const config = grammar.parse({ path: asRelPath('s.log'), lines }, sink).find((r) => r.kind === 'config');
    expect(config?.kind === 'config' && config.fields.server_status).toBe('ready');
    expect(sink.list().map((d) => d.code)).toEqual(['log/crash']);
    // a stats line only after the crash (another start) does not make the first one a served one
    const restarted = new DiagnosticCollector();
    grammar.parse({ path: asRelPath('s.log'), lines: [lines[0] ?? '', ...lines.slice(2), lines[1] ?? ''] }, restarted);
    expect(restarted.list().map((d) => d.code).sort()).toEqual(['log/crash', 'log/failed-start']);
  });

  it("records the 2026 watchdog's subprocess crashes and hard hang timeouts as failures (no traceback of their own)", () => {
    const sink = new DiagnosticCollector();
    const lines = [
      '[2026-10-01 10:00:00] The server is fired up and ready to roll!',
      '[2026-10-01 10:09:00 TP1] Scheduler watchdog timeout (self.watchdog_timeout=120, self.soft=True)',
      '[2026-10-01 10:11:00 TP1] Scheduler watchdog timeout (self.watchdog_timeout=120, self.soft=False)',
      '[2026-10-01 10:11:05] Subprocess scheduler_1 (pid=51) crashed with exit code -11. Triggering SIGQUIT for cleanup...',
    ];
    const parser = grammar.lines?.(asRelPath('s.log'), sink);
    lines.forEach((l, i) => {
      if (grammar.anchors?.some((a) => l.includes(a))) parser?.line(l, i + 1);
    });
    const failures = (parser?.finish() ?? []).filter((r) => r.kind === 'failure');
    expect(failures.map((f) => f.kind === 'failure' && [f.at.line, f.exception])).toEqual([[3, 'WatchdogTimeout'], [4, 'SubprocessCrashed']]);
    expect(sink.list().map((d) => d.code).sort()).toEqual(['log/crash', 'log/crash', 'parse/unrecognized-lines']);
  });
});

describe('sglang-server stats lines: the common shape read without the grammar', () => {
  const head = fc.constantFrom('Decode batch', 'Prefill batch', 'Decode batch [12]', 'Decode batch[7]', 'Decode batch  [3]', 'Decode batch [first graph replay]', 'new fill batch', 'Decode batch.', 'decode batch');
  const key = fc.constantFrom('#running-req', 'token usage', 'gen throughput (token/s)', '#queue-req', 'cuda graph', 'accept len', 'mamba num', '#new-token', 'full token usage', 'x (a, b)', 'x (a: b)', '9lives', 'a-b c-d', 'key with  two spaces', 'Decode batch', 'Prefill batch size', 'new fill batch', 'x Decode batch', 'tree_cache_hit_rate', 'est. decode TFLOPS/s (per GPU)', 'est. read BW (GB/s per GPU)', 'est.x', 'est.  y', 'est. Decode batch', 'a/b c', '/s', 'fwd occupancy', '#bootstrap-req');
  const value = fc.oneof(
    fc.constantFrom('0', '68', '0.49', '2499.67', '.5', '-.5', '-3', '-', '12%', '%', '-%', '5%%', '.5%', 'True', 'False', 'None', 'NaN', 'nan', 'nan%', 'nan%%', 'nan%5', 'inf', 'inf%', 'infinity', 'nano', 'nan5', 'v1.2', '1e-5', '1.2.3', '', '0.', 'a:b', 'x y', 'b: c'),
    fc.constantFrom('2025-07-18T15:32:52.498932', '2025-07-18T15:32:52', '2025-07-18T15:32:52.', '2025-07-18T15:32', '2025-07-18 15:32:52', '2025-07-18T15:32:52.5x', '2025-07-18T15:32:52.5%'),
    fc.double({ noNaN: true }).map(String),
    fc.string({ maxLength: 4 }),
  );
  const separator = fc.constantFrom(', ', ',', ',  ', '. ', ' ');
  const message = fc
    .tuple(head, fc.array(fc.tuple(separator, key, fc.constantFrom(': ', ':', ':  '), value), { maxLength: 8 }), fc.constantFrom('', ',', ', ', ',  ', ' ,', ',\t', '.', ' '))
    .map(([h, pairs, end]) => `${h}${pairs.map(([sep, k, colon, v]) => `${sep}${k}${colon}${v}`).join('')}${end}`);

  it('agrees with the grammar wherever it answers', () => {
    expectAgreesWhereItAnswers(message, commonStatsLine, parseStatsLineWithGrammar, { numRuns: 2000, minAnswered: 50 });
  });

  it('agrees with the grammar on lines of the common separators, where it answers most', () => {
    const common = fc
      .tuple(head, fc.array(fc.tuple(key, fc.oneof({ weight: 3, arbitrary: fc.constantFrom('0', '68', '0.49', '.5', '-3', '12%', 'True', 'nan', 'nan%', 'inf', 'NaN') }, value)), { maxLength: 6 }), fc.constantFrom('', ',', ', ', ',  '))
      .map(([h, pairs, end]) => `${h}${pairs.map(([k, v]) => `, ${k}: ${v}`).join('')}${end}`);
    expectAgreesWhereItAnswers(common, commonStatsLine, parseStatsLineWithGrammar, { numRuns: 2000, minAnswered: 250 });
  });

  it('answers for the lines SGLang prints today', () => {
    for (const line of [
      'Decode batch, #running-req: 64, #token: 9000, token usage: 0.12, cuda graph: True, gen throughput (token/s): 2100.00, #queue-req: 0',
      'Prefill batch, #new-seq: 8, #new-token: 8064, #cached-token: 512000, full token usage: 0.50, mamba usage: 0.48, #running-req: 2, #queue-req: 0, #pending-token: 0, npu graph: False, input throughput (token/s): 1290.10',
      'Decode batch[7], #running-req: 68, full token usage: 0.49, gen throughput (token/s): 2499.67, #queue-req: 0, ',
      'Prefill batch, #new-seq: 4, #new-token: 16384, #cached-token: 2048, token usage: 0.21, #running-req: 12, #queue-req: 3, #pending-token: 40960, #bootstrap-req: 3, #inflight-req: 1, cuda graph: False, input throughput (token/s): 28104.55, est. prefill TFLOPS/s (per GPU): 412.37, fwd occupancy: 91.42%',
      'Decode batch, #running-req: 64, #token: 90112, token usage: 0.43, cuda graph: True, gen throughput (token/s): 3120.44, #queue-req: 0, est. decode TFLOPS/s (per GPU): 96.18, est. read BW (GB/s per GPU): 2210.53, est. write BW (GB/s per GPU): 14.02, fwd occupancy: nan%',
      'Decode batch, #running-req: 48, #gpu token: 61440, gpu token usage: 0.62, #cpu token: 1572864, cpu token usage: 0.38, cuda graph: True, gen throughput (token/s): 1840.27, #queue-req: 1',
      'Decode batch [first graph replay], #running-req: 32, cuda graph: True, #queue-req: 0',
    ]) {
      expect(commonStatsLine(line)).not.toBeNull();
      expect(commonStatsLine(line)).toEqual(parseStatsLineWithGrammar(line));
    }
  });
});
