import { seriesFields } from '../../src/core/timeline-series.js';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { parseByLines } from '../../src/core/grammar.js';
import { asRelPath } from '../../src/core/types.js';
import { metricsEntry, metricsTime, snakeFromCamel } from '../../grammars/trtllm-serve-metrics-json/fields.js';
import { grammar } from '../../grammars/trtllm-serve/index.js';
import { commonIterLine, parseIterLine, parseIterLineWithGrammar } from '../../grammars/trtllm-serve/iter-parser.js';
import fc from 'fast-check';
import { expectAgreesWhereItAnswers } from '../helpers/shortcut.js';
import { splitPrefix } from '../../grammars/trtllm-serve/prefix.js';

describe('trtllm-serve log prefixes', () => {
  it('splits Python, ranked, C++ and uvicorn prefixes', () => {
    expect(splitPrefix('[08/07/2025-02:28:51] [TRT-LLM] [I] hello')).toMatchObject({ level: 'I', source: 'python', time: '2025-08-07T02:28:51', rank: null, message: 'hello' });
    expect(splitPrefix('[08/07/2025-02:28:51] [TRT-LLM] [RANK 3] [W] x')).toMatchObject({ level: 'W', rank: 3, message: 'x' });
    expect(splitPrefix('[TensorRT-LLM][INFO] Number of tokens per block: 32.')).toMatchObject({ level: 'INFO', source: 'cpp', message: 'Number of tokens per block: 32.' });
    expect(splitPrefix('INFO:     Application startup complete.')).toMatchObject({ source: 'uvicorn', message: 'Application startup complete.' });
    expect(splitPrefix('> [TensorRT-LLM][ERROR] boom')).toMatchObject({ level: 'ERROR', message: 'boom' });
  });

  it('splits the 1.x [_torch] module tag and the rank behind it, with or without the clock', () => {
    expect(splitPrefix('[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch][RANK 1] iter = 7, x = 1')).toMatchObject({ level: 'I', source: 'python', time: '2026-07-22T00:00:00', rank: 1, message: 'iter = 7, x = 1' });
    expect(splitPrefix('[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch] Running CUDA graph capture for 4 batch sizes.')).toMatchObject({ rank: null, message: 'Running CUDA graph capture for 4 batch sizes.' });
    expect(splitPrefix('[TRT-LLM] [I] [_torch][RANK 0] iter = 5, y = 2')).toMatchObject({ source: 'python', time: null, rank: 0, message: 'iter = 5, y = 2' });
    // a tag other than the module's stays in the message
    expect(splitPrefix('[07/22/2026-00:00:00] [TRT-LLM] [I] [MemUsageChange] model loaded')).toMatchObject({ message: '[MemUsageChange] model loaded' });
  });

  it('reads every key of an iteration line, dict included', () => {
    const pairs = parseIterLine("iter = 5, elapsed_time = 0.08s, timestamp = 2025-08-07 02:28:51, num_scheduled_requests: 1, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 4096}");
    expect(pairs).toEqual([
      ['iter', '5'],
      ['elapsed_time', '0.08s'],
      ['timestamp', '2025-08-07 02:28:51'],
      ['num_scheduled_requests', '1'],
      ['states', "{'num_ctx_requests': 1, 'num_ctx_tokens': 4096}"],
    ]);
  });

  it('converts elapsed seconds to ms and a percent kv_cache_util to a fraction', () => {
    const sink = new DiagnosticCollector();
    const line = '[02/11/2026-18:04:09] [TRT-LLM] [I] iter = 1, elapsed_time = 0.5s, kv_cache_util = 45.5%';
    const [rec] = grammar.parse({ path: asRelPath('s.log'), lines: [line] }, sink);
    expect(rec?.kind === 'timeline' ? seriesFields(rec.series, 0) : null).toMatchObject({ iter: 1, iter_latency_ms: 500, kv_cache_usage: 0.455, time: '2026-02-11T18:04:09' });
  });

  /** The timeline rows and diagnostics of some log lines. */
  function timelineOf(lines: string[]): { rows: Record<string, unknown>[]; codes: string[] } {
    const sink = new DiagnosticCollector();
    const records = grammar.parse({ path: asRelPath('s.log'), lines }, sink);
    const rows = records.flatMap((r) => (r.kind === 'timeline' ? Array.from({ length: r.series.length }, (_, i) => seriesFields(r.series, i)) : []));
    return { rows, codes: sink.list().map((d) => `${d.severity} ${d.code}`) };
  }

  it('reads the 1.x line: host step time as iter_latency_ms, the previous device step in its own column, N/A as no value', () => {
    const { rows, codes } = timelineOf([
      "[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch][RANK 0] iter = 7, global_rank = 0, rank = 0, num_scheduled_requests = 3, kv_cache_util = N/A, currank_total_requests = 1/1, host_step_time = 5.0ms, prev_device_step_time = N/A, timestamp = 2026-07-22 00:00:00, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 512, 'num_generation_tokens': 2, 'cached_kv_tokens': 0}",
      "[07/22/2026-00:00:01] [TRT-LLM] [I] [_torch][RANK 0] iter = 8, global_rank = 0, rank = 0, num_scheduled_requests = 3, kv_cache_util = 0.100, currank_total_requests = 1/1, host_step_time = 4.5ms, prev_device_step_time = 15.0ms, timestamp = 2026-07-22 00:00:01, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 3, 'cached_kv_tokens': 512}",
    ]);
    expect(codes).toEqual([]);
    expect(rows[0]).toMatchObject({ iter: 7, running: 3, iter_latency_ms: 5, cached_kv_tokens: 0, num_ctx_tokens: 512, time: '2026-07-22T00:00:00' });
    expect(rows[0]).not.toHaveProperty('prev_device_step_time_ms');
    expect(rows[0]).not.toHaveProperty('kv_cache_usage');
    expect(rows[0]).not.toHaveProperty('host_step_time');
    expect(rows[1]).toMatchObject({ iter: 8, iter_latency_ms: 4.5, prev_device_step_time_ms: 15, kv_cache_usage: 0.1, cached_kv_tokens: 512 });
  });

  it('reads the 2026 line with attention-DP dummy tokens (adp_dummy_ctx_tokens, adp_dummy_gen_tokens) as columns of their own', () => {
    const { rows, codes } = timelineOf([
      "[05/04/2026-09:10:12] [TRT-LLM] [I] [_torch][RANK 1] iter = 41, global_rank = 1, rank = 1, num_scheduled_requests = 0, adp_dummy_ctx_tokens = 1, adp_dummy_gen_tokens = 3, kv_cache_util = 0.041, currank_total_requests = 0/6, host_step_time = 12.0ms, prev_device_step_time = 11.625ms, timestamp = 2026-05-04 09:10:12, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 0, 'cached_kv_tokens': 0}",
    ]);
    expect(codes).toEqual([]);
    expect(rows[0]).toMatchObject({ iter: 41, global_rank: 1, running: 0, adp_dummy_ctx_tokens: 1, adp_dummy_gen_tokens: 3, kv_cache_usage: 0.041, iter_latency_ms: 12, prev_device_step_time_ms: 11.625 });
  });

  it('reads the mid-1.x line (host and device step times, num_scheduled_requests with a colon)', () => {
    const { rows, codes } = timelineOf([
      "[08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, global_rank = 0, rank = 0, currank_total_requests = 0/0, host_step_time = 81.25ms, prev_device_step_time = 80.5ms, timestamp = 2025-08-07 02:28:51, num_scheduled_requests: 1, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 2048, 'num_generation_tokens': 0}",
    ]);
    expect(codes).toEqual([]);
    expect(rows[0]).toMatchObject({ iter: 5, running: 1, iter_latency_ms: 81.25, prev_device_step_time_ms: 80.5 });
  });

  it('takes the rank tag as global_rank when the line does not print one, never over the one it prints', () => {
    const { rows } = timelineOf([
      "[TRT-LLM] [I] [_torch][RANK 3] iter = 5, num_scheduled_requests = 1, host_step_time = 5.0ms, states = {'num_generation_tokens': 4}",
      '[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch][RANK 3] iter = 6, global_rank = 2, host_step_time = 5.0ms',
    ]);
    expect(rows[0]).toMatchObject({ iter: 5, global_rank: 3, running: 1, num_generation_tokens: 4 });
    expect(rows[0]).not.toHaveProperty('time');
    expect(rows[1]).toMatchObject({ iter: 6, global_rank: 2 });
  });

  it('warns of a step time in a unit it does not know, and of a cut value, not of N/A', () => {
    const { codes } = timelineOf([
      '[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch] iter = 1, host_step_time = 5.0us, prev_device_step_time = N/A',
      '[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch] iter = 2, host_step_time = ',
    ]);
    expect(codes).toEqual(['warning log/bad-stats-value', 'warning log/bad-stats-value']);
  });

  it('counts an iteration line behind a tag it does not know instead of dropping it', () => {
    const sink = new DiagnosticCollector();
    const records = grammar.parse({ path: asRelPath('s.log'), lines: ['[07/22/2026-00:00:00] [TRT-LLM] [I] [_other][RANK 0] iter = 7, host_step_time = 5.0ms', '0: [07/22/2026-00:00:00] [TRT-LLM] [I] [_torch][RANK 0] iter = 8, host_step_time = 5.0ms'] }, sink);
    expect(records).toEqual([]);
    expect(sink.list().map((d) => [d.code, d.line, d.message])).toEqual([['parse/unrecognized-lines', 1, '2 lines not recognized, the first here']]);
  });

  it("reads the PyTorch backend's KV cache line: its tokens per block and its primary blocks", () => {
    const records = grammar.parse({ path: asRelPath('s.log'), lines: ['[TensorRT-LLM][INFO] Max KV cache blocks per sequence: 65 [window size=2051], tokens per block=32, primary blocks=116617, secondary blocks=0'] }, new DiagnosticCollector());
    expect(records.find((r) => r.kind === 'config')?.fields).toMatchObject({ kv_cache_tokens_per_block: 32, kv_cache_blocks: 116617 });
  });

  it('detects a 1.x log by its iteration lines', () => {
    const head = "[07/22/2026-00:00:00] [TRT-LLM] [I] [_torch][RANK 0] iter = 7, global_rank = 0, rank = 0, num_scheduled_requests = 3, kv_cache_util = 0.100, currank_total_requests = 1/1, host_step_time = 5.0ms, prev_device_step_time = N/A, timestamp = 2026-07-22 00:00:00, states = {'num_ctx_requests': 1}";
    expect(grammar.detect({ head, path: asRelPath('s.log') })).toMatchObject({ score: 0.8 });
  });

  it('gives the same records when lines without an anchor are skipped', () => {
    const lines = [
      'noise line',
      '[08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, num_scheduled_requests: 1',
      'INFO:     127.0.0.1:1 - "POST /v1/completions HTTP/1.1" 200 OK',
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in <module>',
      'ValueError: bad',
    ];
    const full = grammar.parse({ path: asRelPath('s.log'), lines }, new DiagnosticCollector());
    const parser = grammar.lines?.(asRelPath('s.log'), new DiagnosticCollector());
    if (!parser) throw new Error('streaming form missing');
    const kept = lines.map((l, i) => ({ l, n: i + 1 })).filter(({ l }) => grammar.anchors?.some((a) => l.includes(a)));
    for (const { l, n } of kept) parser.line(l, n);
    expect(parser.finish()).toEqual(full);
    expect(full.map((r) => r.kind)).toEqual(['timeline', 'failure']);
    expect(parseByLines(grammar.lines?.(asRelPath('s.log'), new DiagnosticCollector()) ?? parser, { path: asRelPath('s.log'), lines })).toEqual(full);
  });
});

describe('trtllm-serve iteration lines: the common shape read without the grammar', () => {
  const key = fc.constantFrom('iter', 'global_rank', 'currank_total_requests', 'elapsed_time', 'timestamp', 'num_scheduled_requests', 'states', 'kv_cache_util', '_x', 'a1', '9x', 'x y', '');
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('5', '0/0', '0.0812s', '12 ms', '2025-08-07 02:28:51', "{'num_ctx_requests': 1, 'num_ctx_tokens': 2048}", '{}', '87.5%', 'True', 'None') },
    fc.constantFrom('', ' 5', '5 ', 'a = 1', 'b: 2', 'ab cd: 3', '=5', ':5', '{unclosed', 'x}', '{a{b}', "{'a': {'b': 1}}", 'x,y', '\v1', 'é', '中文'),
    fc.string({ maxLength: 6 }),
  );
  const assign = fc.constantFrom(' = ', ': ', '=', ' : ', ':  ', ' =');
  const separator = fc.constantFrom(', ', ',', ' , ', ',  ');
  const message = fc
    .tuple(fc.array(fc.tuple(key, assign, value, separator), { minLength: 1, maxLength: 8 }), fc.constantFrom('', ',', ', ', ' '))
    .map(([pairs, end]) => `${pairs.map(([k, a, v, sep], i) => `${i > 0 ? sep : ''}${k}${a}${v}`).join('')}${end}`);
  const common = fc
    .array(fc.tuple(key, fc.constantFrom(' = ', ': '), value), { minLength: 1, maxLength: 8 })
    .map((pairs) => pairs.map(([k, a, v]) => `${k}${a}${v}`).join(', '));

  it('agrees with the grammar wherever it answers', () => {
    expectAgreesWhereItAnswers(fc.oneof(message, common), commonIterLine, parseIterLineWithGrammar, { minAnswered: 300 });
  });

  it('answers for the lines TensorRT-LLM prints', () => {
    const line = "iter = 5, global_rank = 0, rank = 0, currank_total_requests = 0/0, elapsed_time = 0.0812501907348632s, timestamp = 2025-08-07 02:28:51, num_scheduled_requests: 1, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 2048, 'num_generation_tokens': 0}";
    expect(commonIterLine(line)).not.toBeNull();
    expect(commonIterLine(line)).toEqual(parseIterLineWithGrammar(line));
    const line1x = "iter = 7, global_rank = 0, rank = 0, num_scheduled_requests = 3, kv_cache_util = N/A, currank_total_requests = 1/1, host_step_time = 5.0ms, prev_device_step_time = N/A, timestamp = 2026-07-22 00:00:00, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 512, 'num_generation_tokens': 2, 'cached_kv_tokens': 0}";
    expect(commonIterLine(line1x)).not.toBeNull();
    expect(commonIterLine(line1x)).toEqual(parseIterLineWithGrammar(line1x));
  });
});

describe('trtllm-serve /metrics JSON helpers', () => {
  it('converts camelCase keys and the MM-DD-YYYY timestamp', () => {
    expect(snakeFromCamel('avgNumDecodedTokensPerIter')).toBe('avg_num_decoded_tokens_per_iter');
    expect(snakeFromCamel('newActiveRequestsQueueLatencyMS')).toBe('new_active_requests_queue_latency_ms');
    expect(metricsTime('07-25-2025 16:54:34.140189')).toBe('2025-07-25T16:54:34');
    expect(metricsTime('yesterday')).toBeNull();
  });

  const at = { file: asRelPath('m.json'), line: 1, column: 1 };

  it('takes hostStepTimeMS (2026) as iter_latency_ms, as the log line\'s host_step_time, and keeps iterLatencyMS as batch_latency_ms', () => {
    const row = metricsEntry({ iter: 3, iterLatencyMS: 21, hostStepTimeMS: 10.25, prevDeviceStepTimeMS: 9.75, gpuForwardTimeMS: 9.5, schedulerMode: 'overlap', attentionDpRank: 1 }, at).fields;
    expect(row).toMatchObject({ iter_latency_ms: 10.25, batch_latency_ms: 21, prev_device_step_time_ms: 9.75, gpu_forward_time_ms: 9.5, scheduler_mode: 'overlap', attention_dp_rank: 1 });
    // a record of an older server (no hostStepTimeMS): iterLatencyMS stays iter_latency_ms
    const old = metricsEntry({ iter: 3, iterLatencyMS: 21 }, at).fields;
    expect(old).toMatchObject({ iter_latency_ms: 21 });
    expect(old).not.toHaveProperty('batch_latency_ms');
  });

  it('counts the requests an iteration suspended (2026) as its preemptions, as vLLM and SGLang lines are counted', () => {
    expect(metricsEntry({ iter: 9, iterSuspendedRequests: 2, iterResumedRequests: 1 }, at).fields).toMatchObject({ preemptions: 2, iter_resumed_requests: 1 });
  });

  it('reads the iteration KV counters of a single attention window, not those of several', () => {
    const one = metricsEntry({ iter: 1, kvCacheIterationStats: { '8192': { iterAllocNewBlocks: 3, iterCacheHitRate: 0.5 } } }, at).fields;
    expect(one).toMatchObject({ kv_iter_alloc_new_blocks: 3, kv_iter_cache_hit_rate: 0.5 });
    const two = metricsEntry({ iter: 1, kvCacheIterationStats: { '512': { iterAllocNewBlocks: 1 }, '8192': { iterAllocNewBlocks: 3 } } }, at).fields;
    expect(two).not.toHaveProperty('kv_iter_alloc_new_blocks');
  });
});
