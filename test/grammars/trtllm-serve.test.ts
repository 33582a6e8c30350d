import { seriesFields } from '../../src/core/timeline-series.js';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { parseByLines } from '../../src/core/grammar.js';
import { asRelPath } from '../../src/core/types.js';
import { closeTruncatedArray } from '../../grammars/trtllm-serve-metrics-json/salvage.js';
import { metricsTime, snakeFromCamel } from '../../grammars/trtllm-serve-metrics-json/fields.js';
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
  });
});

describe('trtllm-serve /metrics JSON helpers', () => {
  it('converts camelCase keys and the MM-DD-YYYY timestamp', () => {
    expect(snakeFromCamel('avgNumDecodedTokensPerIter')).toBe('avg_num_decoded_tokens_per_iter');
    expect(snakeFromCamel('newActiveRequestsQueueLatencyMS')).toBe('new_active_requests_queue_latency_ms');
    expect(metricsTime('07-25-2025 16:54:34.140189')).toBe('2025-07-25T16:54:34');
    expect(metricsTime('yesterday')).toBeNull();
  });

  it('closes a cut array after its last complete element', () => {
    expect(closeTruncatedArray('[{"a": 1}, {"b": "}"}, {"c": ')).toBe('[{"a": 1}, {"b": "}"}]');
    expect(closeTruncatedArray('[{"a": 1}]')).toBeNull();
    expect(closeTruncatedArray('{"a": 1')).toBeNull();
  });
});
