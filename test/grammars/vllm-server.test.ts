import { seriesEntries } from '../../src/core/timeline-series.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogClock } from '../../grammars/vllm-server/clock.js';
import { grammar } from '../../grammars/vllm-server/index.js';
import { commonPrefix, gluedRecordAt, parsePrefix, parsePrefixByGrammar } from '../../grammars/vllm-server/prefix.js';
import { readStartupLine } from '../../grammars/vllm-server/startup.js';
import { commonStatsLine, readStatsLine, readStatsLineByLabels } from '../../grammars/vllm-server/stats.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { FieldMapBuilder } from '../../src/core/records.js';
import { wantsLine } from '../../src/core/grammar.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { fixtureCases } from '../helpers/fixtures.js';
import { stableJson } from '../helpers/serialize.js';
import { expectAgreesWhereItAnswers } from '../helpers/shortcut.js';

const FILE = asRelPath('serve.log');

/** A right variant four times out of five, else a near miss. */
const pick = (right: string[], wrong: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...right) }, { weight: 1, arbitrary: fc.constantFrom(...wrong) });

describe('vllm-server line prefixes', () => {
  it.each([
    ['INFO 02-28 21:48:18 metrics.py:161] Avg prompt', 'Avg prompt', 'INFO', '', null],
    ['(APIServer pid=1) ERROR 05-01 14:39:06 [async_llm.py:699]   File "x.py", line 3, in f', '  File "x.py", line 3, in f', 'ERROR', 'APIServer pid=1', null],
    ['(VllmWorker rank=0 pid=12) WARNING 01-02 03:04:05 [a.py:1] w', 'w', 'WARNING', 'VllmWorker rank=0 pid=12', null],
    ['DEBUG 04-11 10:00:31 [v1/metrics/loggers.py:87] d', 'd', 'DEBUG', '', null],
    ['2025-05-19T10:13:11.123456789Z (EngineCore_DP0 pid=7) INFO 05-19 10:13:11 [core.py:1] m', 'm', 'INFO', 'EngineCore_DP0 pid=7', 2025],
    ['[2024-07-08 15:17:34] INFO 07-08 07:17:34 metrics.py:334] m', 'm', 'INFO', '', 2024],
    ['Sep 22 23:46:42 host-1 vllm[361991]: INFO 09-22 23:46:42 metrics.py:351] m', 'm', 'INFO', 'vllm[361991]', null],
    ['[1;36m(APIServer pid=9)[0;0m INFO 07-30 12:01:20 [loggers.py:118] m', 'm', 'INFO', 'APIServer pid=9', null],
    ['> # INFO 01-01 00:00:00 [a.py:1] quoted', 'quoted', 'INFO', '', null],
    // Ray actors: 2024's `--engine-use-ray` engine, a Ray Data stage, a worker on another node, a task
    ['(_AsyncLLMEngine pid=1974) INFO 01-25 11:26:53 llm_engine.py:706] Avg prompt', 'Avg prompt', 'INFO', '_AsyncLLMEngine pid=1974', null],
    ['(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=20874) INFO 07-27 22:30:35 [loggers.py:118] m', 'm', 'INFO', 'MapWorker(MapBatches(vLLMEngineStageUDF)) pid=20874', null],
    ['(RayWorkerWrapper pid=263, ip=10.0.16.95) INFO 01-30 11:53:53 model_runner.py:1115] m', 'm', 'INFO', 'RayWorkerWrapper pid=263, ip=10.0.16.95', null],
    ['(pid=776) WARNING 01-30 11:53:53 [a.py:1] w', 'w', 'WARNING', 'pid=776', null],
    // nested prefixes: the innermost process wrote the line
    ['(Worker pid=312) (Worker_TP0 pid=312) INFO 03-01 11:23:38 [gpu_worker.py:423] Available KV cache memory: 1.73 GiB', 'Available KV cache memory: 1.73 GiB', 'INFO', 'Worker_TP0 pid=312', null],
    ['^[[1;36m(APIServer pid=1)^[[0;0m ^[[1;36m(EngineCore_DP0 pid=276)^[[0;0m ERROR 09-24 13:00:49 [core.py:708] RuntimeError: x', 'RuntimeError: x', 'ERROR', 'EngineCore_DP0 pid=276', null],
    // a Python logging configuration of the user's own: its date is the line's own, with the year
    ['2024-12-20 15:18:19 - vllm.engine.metrics - INFO - Avg prompt', 'Avg prompt', 'INFO', '', 2024],
    ['2024-12-20 15:18:19,042 - vllm.engine.llm_engine - WARNING - # GPU blocks: 1', '# GPU blocks: 1', 'WARNING', '', 2024],
    ['2024-07-23 22:27:24,016 [WARNING] [TRT-LLM] [W] Logger level', '[TRT-LLM] [W] Logger level', 'WARNING', '', 2024],
    ['(RayWorkerWrapper pid=263) 2024-12-20 15:18:19 - vllm.worker - INFO - m', 'm', 'INFO', 'RayWorkerWrapper pid=263', 2024],
    ['2024-12-20 15:18:19 - vllm - NOTICE - m', '2024-12-20 15:18:19 - vllm - NOTICE - m', null, '', null],
    ['(a b pid=1) INFO 01-01 00:00:00 [a.py:1] m', '(a b pid=1) INFO 01-01 00:00:00 [a.py:1] m', null, '', null],
    ['(APIServer pid=2)     ~~~~^^^^', '    ~~~~^^^^', null, 'APIServer pid=2', null],
    ['Traceback (most recent call last):', 'Traceback (most recent call last):', null, '', null],
    ['INFO:     127.0.0.1:1 - "GET /metrics HTTP/1.1" 200 OK', 'INFO:     127.0.0.1:1 - "GET /metrics HTTP/1.1" 200 OK', null, '', null],
  ])('%s', (line, message, level, process, year) => {
    const p = parsePrefix(line);
    expect([p.message, p.level, p.process, p.wrapper?.year ?? null]).toEqual([message, level, process, year]);
  });

  it('reads the common shape without the grammar, exactly as the grammar does', () => {
    // lines shaped like vLLM's prefix, each layer drawn from right, near-miss and absent variants
    const line = fc
      .tuple(
        pick([''], ['> ', '2025-05-19T10:13:11Z ', '[2024-07-08 15:17:34] ']),
        pick(['', '(APIServer pid=1) ', '(VllmWorker rank=0 pid=12) ', '(_AsyncLLMEngine pid=3) '], ['(x) ', '[1;36m(APIServer pid=9)[0;0m ', '(APIServer pid=1)', '(Worker pid=2) (Worker_TP0 pid=2) ', '(M(B(U)) pid=4) ']),
        pick(['INFO ', 'WARNING ', 'WARN ', 'ERROR ', 'DEBUG ', 'CRITICAL '], ['Info ', '']),
        pick(['01-05 ', '12-31 '], ['1-05 ', '']),
        pick(['10:00:40 ', '10:00:40.123 '], ['10:00:40', '10:00 ']),
        pick(['[loggers.py:123] ', '[loggers.py:123]', '[v1/metrics/loggers.py:87] '], ['metrics.py:161] ', '[a.py:1][0m ', '[a.py] ', '']),
        fc.array(fc.constantFrom('Engine 000: Avg prompt throughput: 1.0 tokens/s', 'x', ' ', '  indented', 'é', '[b.py:2] ', 'c.py:3] ', '[0m[d.py:4] ', '\t'), { maxLength: 3 }),
      )
      .map(([wrapper, proc, level, date, time, file, message]) => `${wrapper}${proc}${level}${date}${time}${file}${message.join('')}`);
    expectAgreesWhereItAnswers(line, commonPrefix, parsePrefixByGrammar, { seed: 3 });
    for (const line of ['(APIServer pid=41) INFO 01-05 10:00:40 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s', 'DEBUG 04-11 10:00:31.5 [v1/metrics/loggers.py:87] d']) {
      expect(commonPrefix(line)).not.toBeNull();
      expect(commonPrefix(line)).toEqual(parsePrefixByGrammar(line));
    }
    expect(commonPrefix('(APIServer pid=1) INFO 01-05 10:00:40 [a.py:1] [b.py:2] x')).toBeNull();
  });

  it('reads a Python logging head without the grammar, exactly as the grammar does', () => {
    const line = fc
      .tuple(
        pick(['2024-12-20 ', '2025-01-02 '], ['24-12-20 ', '2024-12-20T', '']),
        pick(['15:18:19 ', '15:18:19,042 ', '15:18:19.5 '], ['15:18 ', '15:18:19, ']),
        pick(['- vllm.engine.metrics - L - ', '- __main__ - L -', '[L] ', '[L]'], ['- a b - L - ', '- L - ', '[L]: ', '(L) ']),
        pick(['INFO', 'WARNING', 'ERROR', 'DEBUG'], ['info', 'NOTICE']),
        fc.array(fc.constantFrom('Avg prompt throughput: 1.0 tokens/s', '# GPU blocks: 1', ' ', '[a.py:1] ', '> ', 'é'), { maxLength: 3 }),
      )
      .map(([date, time, head, level, message]) => `${date}${time}${head.replace('L', level)}${message.join('')}`);
    expectAgreesWhereItAnswers(line, commonPrefix, parsePrefixByGrammar, { seed: 5 });
  });

  it('finds a second record glued into a message by a lost newline, and nothing in a message of one', () => {
    expect(gluedRecordAt('Avg prompt throughput: 0.0 tokens/s, Running: 32 $INFO 07-03 23:23:58 [metrics.py:536] Avg prompt throughput: 0.0 tokens/s')).toBe(50);
    expect(gluedRecordAt('x=1(APIServer pid=1) WARNING 07-03 23:23:58.5 metrics.py:1] y')).toBe(3);
    expect(gluedRecordAt('INFO 07-03 23:23:58 [metrics.py:536] a record of its own')).toBe(-1);
    expect(gluedRecordAt('Avg prompt throughput: 0.0 tokens/s, Running: 32 reqs, INFO 07-03 is a date')).toBe(-1);
  });

  it('reads the stamp of the logger', () => {
    expect(parsePrefix('INFO 12-31 23:59:51 [loggers.py:80] x').stamp).toEqual({ month: 12, day: 31, time: '23:59:51' });
  });
});

describe('LogClock', () => {
  it('takes the year of a wrapper, corrected across New Year', () => {
    const c = new LogClock();
    expect(c.date({ month: 12, day: 31, time: '23:59:58' }, { year: 2026, month: 1, day: 1, time: '08:00:00' })).toEqual({ time: '2025-12-31T23:59:58', inferred: false });
    expect(c.date({ month: 1, day: 1, time: '00:00:01' }, { year: 2025, month: 12, day: 31, time: '23:59:59' })).toEqual({ time: '2026-01-01T00:00:01', inferred: false });
  });

  it('uses the placeholder year 2000 and adds one per Dec → Jan roll-over', () => {
    const c = new LogClock();
    const t = (month: number, day: number) => c.date({ month, day, time: '12:00:00' }, null).time;
    expect([t(11, 30), t(12, 31), t(12, 30), t(1, 1), t(6, 1), t(1, 2)]).toEqual([
      '2000-11-30T12:00:00', '2000-12-31T12:00:00', '2000-12-30T12:00:00', '2001-01-01T12:00:00', '2001-06-01T12:00:00', '2001-01-02T12:00:00',
    ]);
  });
});

describe('LogClock with the year on some lines', () => {
  const dated = (year: number, month: number, day: number) => ({ year, month, day, time: '12:00:00' });
  it('dates a year-less stamp by the dated line nearest before it, counting roll-overs since', () => {
    const c = new LogClock();
    const t = (month: number, day: number) => c.date({ month, day, time: '12:00:00' }, null);
    expect(c.date({ month: 11, day: 30, time: '12:00:00' }, dated(2024, 11, 30))).toEqual({ time: '2024-11-30T12:00:00', inferred: false });
    expect([t(12, 31), t(1, 1)]).toEqual([
      { time: '2024-12-31T12:00:00', inferred: false },
      { time: '2025-01-01T12:00:00', inferred: false },
    ]);
    c.date({ month: 3, day: 1, time: '12:00:00' }, dated(2030, 3, 1));
    expect(t(3, 2)).toEqual({ time: '2030-03-02T12:00:00', inferred: false });
    expect(c.yearsBeforeFirstDate).toBe(24);
  });

  it('leaves the stamps before the first dated line inferred, and says by how many years they are off', () => {
    const c = new LogClock();
    const t = (month: number, day: number) => c.date({ month, day, time: '12:00:00' }, null);
    expect([t(12, 31).time, t(1, 1).time]).toEqual(['2000-12-31T12:00:00', '2001-01-01T12:00:00']);
    expect(c.yearsBeforeFirstDate).toBeNull();
    c.date({ month: 1, day: 2, time: '12:00:00' }, dated(2025, 1, 2));
    expect(c.yearsBeforeFirstDate).toBe(24);
  });
});

describe('readStatsLine', () => {
  it('reads the common V1 line without the label reader, exactly as the label reader does', () => {
    const num = pick(['0', '12', '4660.9', '0.0', '1.', '.5', '-0', '+3', '1e3', '2.5E-2'], ['nan', 'inf', '1e999', '', '1,5', 'x']);
    const line = fc
      .tuple(
        pick(['', 'Engine 000: ', 'Engine 12: '], ['Engine x: ', 'engine 0: ', '2 Engines Aggregated: ']),
        num, num, num, num, num, num,
        pick(['tokens/s'], ['tok/s', 'tokens/s ']),
        pick(['reqs', 'req'], ['requests']),
        pick(['%', ' %'], ['', '  %']),
        pick(['', '.', ',', ' ', '. ', '\t'], [' ,', '..', ', Foo: 3', ', External prefix cache hit rate: 1%', ', MM cache hit rate: 40.0%', ', Corrupted: 0 reqs']),
        pick(['Waiting'], ['Pending', 'Swapped']),
        // the optional fields vLLM prints after `Waiting` (Deferred, then Preemptions): lines the shortcut leaves to the label reader
        pick([''], [', Preemptions: 3', ', Deferred: 2 reqs', ', Deferred: 2 reqs, Preemptions: 1']),
      )
      .map(([engine, a, b, c, d, e, f, tps, reqs, pct, end, waiting, afterWaiting]) =>
        `${engine}Avg prompt throughput: ${a} ${tps}, Avg generation throughput: ${b} tokens/s, Running: ${c} ${reqs}, ${waiting}: ${d} reqs${afterWaiting}, GPU KV cache usage: ${e}${pct}, Prefix cache hit rate: ${f}%${end}`,
      );
    expectAgreesWhereItAnswers(line, commonStatsLine, readStatsLineByLabels, { seed: 5 });
    // the line vLLM prints is read by the shortcut, into the canonical columns
    expect(commonStatsLine('Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 3 reqs, Waiting: 4 reqs, GPU KV cache usage: 50.0%, Prefix cache hit rate: 7.9%')).toEqual({
      kind: 'stats',
      fields: { prompt_throughput: 1, gen_throughput: 2, running: 3, waiting: 4, kv_cache_usage: 0.5, prefix_cache_hit_rate: 0.079, engine_index: 0 },
      bad: [],
    });
  });

  const v0 = 'Avg prompt throughput: 1.5 tokens/s, Avg generation throughput: 44.9 tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 3 reqs, GPU KV cache usage: 82.1%, CPU KV cache usage: 0.0%';
  it.each(['', ',', '.'])('reads the V0 line ending with %j', (end) => {
    expect(readStatsLine(v0 + end)).toEqual({
      kind: 'stats',
      bad: [],
      fields: { prompt_throughput: 1.5, gen_throughput: 44.9, running: 2, swapped: 0, waiting: 3, kv_cache_usage: 0.821, cpu_kv_cache_usage: 0 },
    });
  });

  it('reads the early V1 line (0.7) with no comma between Waiting and GPU KV cache usage', () => {
    const line = 'Avg prompt throughput: 156.5 tokens/s, Avg generation throughput: 1455.8 tokens/s, Running: 12 reqs, Waiting: 3 reqs GPU KV cache usage: 41.2%.';
    expect(readStatsLine(line)).toEqual({
      kind: 'stats',
      bad: [],
      fields: { prompt_throughput: 156.5, gen_throughput: 1455.8, running: 12, waiting: 3, kv_cache_usage: 0.412 },
    });
  });

  it('reads V1 lines with engine index, external prefix rate and trailing spaces', () => {
    const line = 'Engine 003: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 5.4 tokens/s, Running: 1 reqs, Waiting: 14 reqs, GPU KV cache usage: 76.5%, Prefix cache hit rate: 92.0%, External prefix cache hit rate: 7.5%  ';
    expect(readStatsLine(line)?.fields).toEqual({
      engine_index: 3, prompt_throughput: 0, gen_throughput: 5.4, running: 1, waiting: 14, kv_cache_usage: 0.765, prefix_cache_hit_rate: 0.92, external_prefix_cache_hit_rate: 0.075,
    });
  });

  it('reads the optional V1 fields: deferred, preemptions, corrupted, multimodal cache', () => {
    const line = 'Engine 000: Avg prompt throughput: 1950.7 tokens/s, Avg generation throughput: 702.4 tokens/s, Running: 60 reqs, Waiting: 41 reqs, Deferred: 3 reqs, Preemptions: 2, GPU KV cache usage: 98.7%, Prefix cache hit rate: 9.8%, Corrupted: 1 reqs, External prefix cache hit rate: 20.0%, MM cache hit rate: 55.0%';
    expect(readStatsLine(line)).toEqual({
      kind: 'stats',
      bad: [],
      fields: {
        prompt_throughput: 1950.7, gen_throughput: 702.4, running: 60, waiting: 41, deferred: 3, preemptions: 2, kv_cache_usage: 0.987, prefix_cache_hit_rate: 0.098,
        corrupted: 1, external_prefix_cache_hit_rate: 0.2, mm_cache_hit_rate: 0.55, engine_index: 0,
      },
    });
  });

  it('reads the line of all engines (--aggregate-engine-logging) as no one engine\'s', () => {
    const line = '2 Engines Aggregated: Avg prompt throughput: 1800.0 tokens/s, Avg generation throughput: 240.0 tokens/s, Running: 19 reqs, Waiting: 3 reqs, GPU KV cache usage: 11.8%, Prefix cache hit rate: 40.5%';
    expect(readStatsLine(line)?.fields).toEqual({
      prompt_throughput: 1800, gen_throughput: 240, running: 19, waiting: 3, kv_cache_usage: 0.118, prefix_cache_hit_rate: 0.405, engine_index: 'all', aggregated_engines: 2,
    });
    expect(readStatsLine(line.replace('2 Engines', '1 Engines'))?.fields).toMatchObject({ engine_index: 'all', aggregated_engines: 1 });
    expect(readStatsLine('Engines Aggregated: Avg prompt throughput: 1.0 tokens/s')).toBeNull();
  });

  it('keeps a label it does not know under its own name, its value read by its unit', () => {
    expect(readStatsLine('Avg prompt throughput: 2.0 tokens/s, Running: 1 reqs, Offloaded: 4 reqs, Host cache hit rate: 12.5%, Future gauge: 9')).toEqual({
      kind: 'stats',
      bad: [],
      fields: { prompt_throughput: 2, running: 1, offloaded: 4, host_cache_hit_rate: 0.125, future_gauge: 9 },
    });
    // a unit it cannot read is named, as a known label's value cut short is; the values around it stay
    expect(readStatsLine('Avg prompt throughput: 2.0 tokens/s, Future gauge: 9 units, Running: 1 reqs')).toEqual({
      kind: 'stats',
      bad: ['Future gauge'],
      fields: { prompt_throughput: 2, running: 1 },
    });
    // after the per-position list too: the list ends where the next label starts
    expect(readStatsLine('SpecDecoding metrics: Accepted: 5 tokens, Per-position acceptance rate: 0.500, 0.300, Draft tokens per position: 9')?.fields).toEqual({
      spec_accepted_tokens: 5, spec_per_position_acceptance: [0.5, 0.3], draft_tokens_per_position: 9,
    });
  });

  it('reads the diffusion-decoding line under the result JSON\'s names, nan left absent', () => {
    expect(readStatsLine('DiffusionDecoding metrics: Committed token throughput: 200.00 tokens/s, Mean denoising steps per canvas: 17.92, Mean tokens committed per denoising step: 14.29, Committed: 2000 tokens, Denoising steps: 140, Canvas positions evaluated: 35840')).toEqual({
      kind: 'diffusion',
      bad: [],
      fields: {
        diffusion_committed_throughput: 200, diffusion_steps_per_canvas: 17.92, diffusion_committed_per_step: 14.29, diffusion_committed_tokens: 2000, diffusion_denoising_steps: 140, diffusion_canvas_positions: 35840,
      },
    });
    expect(readStatsLine('DiffusionDecoding metrics: Committed token throughput: 0.00 tokens/s, Mean denoising steps per canvas: nan, Mean tokens committed per denoising step: nan, Committed: 0 tokens, Denoising steps: 0, Canvas positions evaluated: 0')?.fields).toEqual({
      diffusion_committed_throughput: 0, diffusion_committed_tokens: 0, diffusion_denoising_steps: 0, diffusion_canvas_positions: 0,
    });
  });

  it('splits the per-position list from the fields around it by the label set', () => {
    const line = 'SpecDecoding metrics: Mean acceptance length: 3.10, Accepted throughput: 31.00 tokens/s, Drafted throughput: 45.00 tokens/s, Accepted: 310 tokens, Drafted: 450 tokens, Per-position acceptance rate: 0.900, 0.700, 0.500, Avg Draft acceptance rate: 68.9%';
    expect(readStatsLine(line)).toEqual({
      kind: 'spec',
      bad: [],
      fields: {
        spec_acceptance_length: 3.1, spec_accepted_throughput: 31, spec_drafted_throughput: 45, spec_accepted_tokens: 310, spec_draft_tokens: 450,
        spec_per_position_acceptance: [0.9, 0.7, 0.5], spec_acceptance_rate: 0.689,
      },
    });
  });

  it('leaves a nan% acceptance rate absent', () => {
    expect(readStatsLine('SpecDecoding metrics: Accepted: 0 tokens, Drafted: 0 tokens, Avg Draft acceptance rate: nan%')?.fields).toEqual({ spec_accepted_tokens: 0, spec_draft_tokens: 0 });
  });

  it('reads V0 fractions, the typo labels and the trailing ", " of v0.8.0', () => {
    expect(readStatsLine('Speculative metrics: Draft acceptance rate: 0.698, System efficiency: 0.540, Number of speculative tokens: 5, Number of accepted tokens: 17870, Number of draft tokens tokens: 25600, Number of emitted tokens tokens: 20700.')?.fields).toEqual({
      spec_acceptance_rate: 0.698, spec_system_efficiency: 0.54, num_spec_tokens: 5, spec_accepted_tokens: 17870, spec_draft_tokens: 25600, spec_emitted_tokens: 20700,
    });
    expect(readStatsLine('Speculative metrics: Draft acceptance rate: 1.000, Number of accepted tokens: 66, Number of draft tokens: 66, ')?.fields).toEqual({
      spec_acceptance_rate: 1, spec_accepted_tokens: 66, spec_draft_tokens: 66,
    });
  });

  it('reads the V0 prefix-cache and stage-time lines', () => {
    expect(readStatsLine('Prefix cache hit rate: GPU: 26.68%, CPU: 0.00%')?.fields).toEqual({ prefix_cache_hit_rate: 0.2668, cpu_prefix_cache_hit_rate: 0 });
    expect(readStatsLine('SpecDecodeWorker stage times: average_time_per_proposal_tok_ms=4.96 scoring_time_ms=54.92 verification_time_ms=1.20')?.fields).toEqual({
      spec_average_time_per_proposal_tok_ms: 4.96, spec_scoring_time_ms: 54.92, spec_verification_time_ms: 1.2,
    });
  });

  it('names a value cut short and ignores other messages', () => {
    expect(readStatsLine('Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 9')?.bad).toEqual(['Avg generation throughput']);
    expect(readStatsLine('Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 15745')).toBeNull();
    expect(readStatsLine('2 Engines: vllm cache_config_info with initialization after num_gpu_blocks is: 37500')).toBeNull();
  });
});

describe('vllm-server KV-transfer and performance lines (2026)', () => {
  const timeline = (lines: string[]) => {
    const sink = new DiagnosticCollector();
    const parser = grammar.lines?.(FILE, sink);
    lines.forEach((l, i) => parser?.line(l, i + 1));
    const records = parser?.finish() ?? [];
    return { rows: records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file).map((e) => e.fields) : [])), sink };
  };

  it('reads the NIXL KV Transfer metrics line under kv_transfer_* columns with their units', () => {
    const p = readStatsLine('KV Transfer metrics: Num successful transfers=5, Avg xfer time (ms)=2.25, P90 xfer time (ms)=3.5, Avg post time (ms)=0.125, P90 post time (ms)=0.2, Avg MB per transfer=16.0, Throughput (MB/s)=7111.111, Avg number of descriptors=512.0, Num failed transfers=1, Num KV expired reqs=0');
    expect(p).toEqual({
      kind: 'kv_transfer',
      bad: [],
      fields: {
        kv_transfer_count: 5,
        kv_transfer_time_avg_ms: 2.25,
        kv_transfer_time_p90_ms: 3.5,
        kv_transfer_post_time_avg_ms: 0.125,
        kv_transfer_post_time_p90_ms: 0.2,
        kv_transfer_size_avg_mib: 16,
        kv_transfer_throughput_mib_per_s: 7111.111,
        kv_transfer_descriptors_avg: 512,
        kv_transfer_failed: 1,
        kv_transfer_expired_reqs: 0,
      },
    });
  });

  it('reads the first NIXL shape, other connectors\' keys, and leaves the per-transfer zeros of an idle interval absent', () => {
    expect(readStatsLine('KV Transfer metrics: num_successful_transfers=9')?.fields).toEqual({ kv_transfer_count: 9 });
    expect(readStatsLine('KV Transfer metrics: Num successful transfers=2, Avg xfer time (ms)=1.5, Num failed recvs=3, Num expired reqs=4')?.fields).toEqual({ kv_transfer_count: 2, kv_transfer_time_avg_ms: 1.5, kv_transfer_failed_recvs: 3, kv_transfer_expired_reqs: 4 });
    expect(readStatsLine('KV Transfer metrics: Store_total_bytes=4096, Store_total_time=0.25')?.fields).toEqual({ kv_transfer_store_total_bytes: 4096, kv_transfer_store_total_time: 0.25 });
    expect(readStatsLine('KV Transfer metrics: Num successful transfers=0, Avg xfer time (ms)=0, Throughput (MB/s)=0, Avg number of descriptors=0, Num failed transfers=3, Num KV expired reqs=1')?.fields).toEqual({ kv_transfer_count: 0, kv_transfer_failed: 3, kv_transfer_expired_reqs: 1 });
    expect(readStatsLine('KV Transfer metrics: Num successful transfers=4, Avg xfer time (ms)=fast')?.bad).toEqual(['Avg xfer time (ms)']);
    // the MultiConnector's nested dict is not read
    expect(readStatsLine("KV Transfer metrics: NixlConnector={'Num successful transfers': 1}")).toBeNull();
  });

  it('reads the MFU line of each engine, of all engines, or of none', () => {
    expect(readStatsLine('Engine 003: MFU: 187.3 TF/s/GPU 1402.6 GB/s/GPU')).toEqual({ kind: 'perf', bad: [], fields: { mfu_tflops_per_gpu: 187.3, mfu_mem_gb_per_s_per_gpu: 1402.6, engine_index: 3 } });
    expect(readStatsLine('2 Engines Aggregated: MFU: 0.0 TF/s/GPU 0.0 GB/s/GPU')?.fields).toEqual({ mfu_tflops_per_gpu: 0, mfu_mem_gb_per_s_per_gpu: 0, engine_index: 'all', aggregated_engines: 2 });
    expect(readStatsLine('MFU: 12.5 TF/s/GPU 300.0 GB/s/GPU')?.fields).toEqual({ mfu_tflops_per_gpu: 12.5, mfu_mem_gb_per_s_per_gpu: 300 });
    expect(readStatsLine('Engine 000: MFU: 12.5 TF/s/GPU')?.bad).toEqual(['MFU']);
    expect(readStatsLine('Enabling MFU: metrics need a supported model')).toBeNull();
  });

  it('joins each line to the stats interval it follows, and passes the anchor prefilter', () => {
    const lines = [
      '(APIServer pid=1) INFO 03-11 09:02:00 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 5.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate: 0.0%',
      '(APIServer pid=1) INFO 03-11 09:02:00 [metrics.py:118] KV Transfer metrics: Num successful transfers=1, Avg xfer time (ms)=3.0',
      '(APIServer pid=1) INFO 03-11 09:02:00 [perf.py:1107] Engine 000: MFU: 1.5 TF/s/GPU 20.0 GB/s/GPU',
      '(APIServer pid=1) INFO 03-11 09:02:10 [metrics.py:118] KV Transfer metrics: Num successful transfers=2',
    ];
    for (const l of lines) expect(wantsLine(grammar, l)).toBe(true);
    const { rows, sink } = timeline(lines);
    expect(rows.map((r) => [r.gen_throughput, r.kv_transfer_count, r.kv_transfer_time_avg_ms, r.mfu_tflops_per_gpu])).toEqual([
      [5, 1, 3, 1.5],
      [undefined, 2, undefined, undefined],
    ]);
    expect(sink.list()).toEqual([]);
  });
});

describe('vllm-server detection', () => {
  const head = (text: string) => grammar.detect({ path: FILE, head: text }).score;
  it('claims server logs of every era and leaves other text alone', () => {
    expect(head('INFO 03-02 23:59:21 api_server.py:240] vLLM API server version 0.3.3\n')).toBeGreaterThan(0);
    expect(head('INFO 01-22 18:27:20 metrics.py:449] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 41.7 tokens/s\n')).toBeGreaterThan(0);
    expect(head('(APIServer pid=1) Traceback (most recent call last):\n')).toBeGreaterThan(0);
    expect(head('INFO 06-16 21:01:09 [__init__.py:244] Automatically detected platform cuda.\nINFO:     Started server process [544]\n')).toBeGreaterThan(0);
    // a Python logging configuration of the user's own: vLLM's logger names
    expect(head('2024-12-20 15:18:19 - vllm.executor.distributed_gpu_executor - INFO - # GPU blocks: 50231, # CPU blocks: 8192\n')).toBeGreaterThan(0);
    // benchmark output with a tee'd stats line: claimed weakly, for the stats line only
    expect(head('============ Serving Benchmark Result ============\n(APIServer pid=3) INFO 03-02 10:11:20 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s\n')).toBe(0.3);
    expect(head('============ Serving Benchmark Result ============\nSuccessful requests: 3\n')).toBe(0);
    expect(head('INFO 06-16 21:01:09 [__init__.py:244] Automatically detected platform cuda.\n')).toBe(0);
    expect(head('hello world\n')).toBe(0);
  });
});

describe('vllm-server streaming', () => {
  const cases = fixtureCases().filter((c) => c.format === 'vllm-server');

  it.each(cases.map((c) => [c.name, c.input]))('%s: the anchor prefilter loses no record', (_name, input) => {
    const source = fromBytes(readFileSync(input), asRelPath(path.basename(input)), new DiagnosticCollector());
    if (!source) throw new Error('unreadable fixture');
    const all = grammar.parse(source, new DiagnosticCollector());
    const parser = grammar.lines?.(source.path, new DiagnosticCollector());
    source.lines.forEach((text, i) => {
      if (wantsLine(grammar, text)) parser?.line(text, i + 1);
    });
    expect(stableJson(parser?.finish())).toBe(stableJson(all));
  });

  it('skips access and request lines cheaply and keeps the stats between them', () => {
    const sink = new DiagnosticCollector();
    const parser = grammar.lines?.(FILE, sink);
    let n = 0;
    for (let i = 0; i < 20_000; i++) {
      parser?.line(`(APIServer pid=1) INFO:     10.0.0.${i % 250}:5${i % 9}000 - "POST /v1/chat/completions HTTP/1.1" 200 OK`, ++n);
      parser?.line(`(APIServer pid=1) INFO 06-03 09:16:01 [logger.py:43] Received request chatcmpl-${i}: prompt: 'ValueError: x', params: SamplingParams(n=1)`, ++n);
      if (i % 1000 === 0) {
        parser?.line(`(APIServer pid=1) INFO 06-03 09:16:01 [loggers.py:123] Engine 000: Avg prompt throughput: ${i}.0 tokens/s, Avg generation throughput: 1.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate: 0.0%`, ++n);
      }
    }
    const records = parser?.finish() ?? [];
    expect(records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file).map((e) => e.fields.prompt_throughput) : [r.kind]))).toEqual(Array.from({ length: 20 }, (_, k) => k * 1000));
    expect(sink.list()).toEqual([]);
  });
});

describe('vllm-server readiness', () => {
  it.each([
    ['Starting vLLM API server 0 on http://0.0.0.0:8000'],
    ['Available routes are:'],
    ['Route: /v1/chat/completions, Methods: POST'],
    ['Route: /v1/realtime, Endpoint: realtime_ws'],
    ['Application startup complete.'],
  ])('%s marks the server ready and is recognized', (message) => {
    const sink = new DiagnosticCollector();
    const lines = ['INFO 09-14 11:02:10 [api_server.py:1896] vLLM API server version 0.11.0', `INFO 09-14 11:02:44 [launcher.py:42] ${message}`];
    const records = grammar.parse({ path: FILE, lines }, sink);
    expect(records.map((r) => (r.kind === 'config' ? r.fields.server_status : r.kind))).toEqual(['ready']);
    expect(sink.list()).toEqual([]);
  });

  it('a server that logged stats and then crashed crashed while serving, its ready line cut off or not; one with no stats failed to start', () => {
    const stats = 'INFO 06-11 11:46:27 [loggers.py:118] Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate: 0.0%';
    const crash = ['ERROR 06-11 11:46:39 [core.py:517] Traceback (most recent call last):', 'ERROR 06-11 11:46:39 [core.py:517]   File "/x/core.py", line 8, in run', 'ERROR 06-11 11:46:39 [core.py:517] RuntimeError: boom'];
    const kv = 'INFO 06-11 11:40:02 [kv_cache_utils.py:716] GPU KV cache size: 301,936 tokens';
    const read = (lines: string[]) => {
      const sink = new DiagnosticCollector();
      const records = grammar.parse({ path: FILE, lines }, sink);
      return [records.flatMap((r) => (r.kind === 'config' ? [r.fields.server_status] : [])), sink.list().map((d) => d.code).sort()];
    };
    expect(read([kv, stats, ...crash])).toEqual([['ready'], ['log/crash']]);
    expect(read([stats, ...crash])).toEqual([['ready'], ['log/crash']]);
    expect(read([kv, ...crash])).toEqual([['failed-start'], ['log/crash', 'log/failed-start']]);
  });

  it('a route-like line of another program is not readiness', () => {
    const sink = new DiagnosticCollector();
    const lines = ['INFO 09-14 11:02:10 [api_server.py:1896] vLLM API server version 0.11.0', 'INFO 09-14 11:02:44 [x.py:1] Route: none configured'];
    const records = grammar.parse({ path: FILE, lines }, sink);
    expect(records.map((r) => (r.kind === 'config' ? r.fields.server_status : r.kind))).toEqual(['unknown']);
  });
});

describe('vLLM capacity lines', () => {
  it('read the KV cache size and the concurrency it allows, on two lines or on one (2026)', () => {
    const apart = new FieldMapBuilder();
    readStartupLine('GPU KV cache size: 123,456 tokens', apart, 3);
    readStartupLine('Maximum concurrency for 4,096 tokens per request: 30.14x', apart, 4);
    const together = new FieldMapBuilder();
    expect(readStartupLine('GPU KV cache size: 123,456 tokens, Maximum concurrency for 4,096 tokens per request: 30.14x', together, 3)).toBe('config');
    const expected = { kv_cache_tokens: 123456, kv_cache_max_concurrency: 30.14, kv_cache_concurrency_tokens: 4096 };
    expect(apart.fields).toEqual(expected);
    expect(together.fields).toEqual(expected);
    expect(together.lines).toEqual({ kv_cache_tokens: 3, kv_cache_max_concurrency: 3, kv_cache_concurrency_tokens: 3 });
  });
});

describe('V0 startup lines of 0.6 – 0.9', () => {
  it.each(['GPU', 'CUDA', 'cuda', 'cpu', 'HPU', 'TPU'])('read `# %s blocks: N, # CPU blocks: M` as the device\'s blocks and the swap blocks', (device) => {
    const b = new FieldMapBuilder();
    expect(readStartupLine(`# ${device} blocks: 5519, # CPU blocks: 9362`, b, 7)).toBe('config');
    expect(b.fields).toEqual({ num_gpu_blocks: 5519, num_cpu_blocks: 9362 });
    expect(wantsLine(grammar, `INFO 05-30 11:25:45 executor_base.py:110] # ${device} blocks: 5519, # CPU blocks: 9362`)).toBe(true);
  });

  it('reads the V0 engine-config line of 0.7 – 0.9 (`Initializing a V0 LLM engine`)', () => {
    const b = new FieldMapBuilder();
    const line = "Initializing a V0 LLM engine (v0.8.5) with config: model='acme/m', speculative_config=None, dtype=torch.float16, max_seq_len=4096, tensor_parallel_size=2, pipeline_parallel_size=1, quantization=fp8, enforce_eager=False, ";
    expect(readStartupLine(line, b, 3)).toBe('config');
    expect(b.fields).toEqual({ engine_version: '0.8.5', model: 'acme/m', dtype: 'float16', max_model_len: 4096, tp: 2, pp: 1, quantization: 'fp8', enforce_eager: false });
  });
});

describe('the 2026 version banner (log_version_and_model)', () => {
  const P = '(APIServer pid=8) ';
  const logo = (version: string, model: string): string[] => [
    `${P}INFO 04-09 10:00:00 [utils.py:298] `,
    `${P}       █     █     █▄   ▄█`,
    `${P} ▄▄ ▄█ █     █     █ ▀▄▀ █  version ${version}`,
    `${P}  █▄█▀ █     █     █     █  model   ${model}`,
    `${P}   ▀▀  ▀▀▀▀▀ ▀▀▀▀▀ ▀     ▀`,
  ];
  const ready = `${P}INFO 04-09 10:01:00 [api_server.py:596] Starting vLLM server on http://0.0.0.0:8000`;
  const configs = (lines: string[]) => {
    const sink = new DiagnosticCollector();
    const records = grammar.parse({ path: FILE, lines }, sink);
    return { configs: records.flatMap((r) => (r.kind === 'config' ? [r.fields] : [])), diagnostics: sink.list() };
  };

  it('reads the version and the model of the one-line banner (logo off)', () => {
    const b = new FieldMapBuilder();
    expect(readStartupLine('vLLM server version 0.24.1, serving model /models/m-30b', b, 5)).toBe('banner');
    expect(b.fields).toEqual({ engine_version: '0.24.1', model: '/models/m-30b' });
  });

  it('reads the version and the model from the logo rows, every row recognized', () => {
    const { configs: found, diagnostics } = configs([...logo('0.24.0', 'acme/m-8b'), ready]);
    expect(found).toEqual([expect.objectContaining({ engine_version: '0.24.0', model: 'acme/m-8b', server_status: 'ready' })]);
    expect(diagnostics).toEqual([]);
  });

  it('reads a colour logo whose escape bytes were lost on the way', () => {
    const b = new FieldMapBuilder();
    expect(readStartupLine(' [93m▄▄[0m [94m▄█[0m [1m█     █     █ ▀▄▀ █[0m  version [1m0.24.0[0m', b, 1)).toBe('banner');
    expect(readStartupLine('  [93m█[0m[94m▄█▀[0m [1m█     █     █     █[0m  model   [1macme/m-8b[0m', b, 2)).toBe('config');
    expect(b.fields).toEqual({ engine_version: '0.24.0', model: 'acme/m-8b' });
  });

  it('starts a new server at a second logo, and takes no progress bar for a logo row', () => {
    const bar = `${P}Capturing CUDA graphs (decode, FULL): 100%|██████████| 35/35 [00:02<00:00, 14.1it/s]`;
    expect(readStartupLine(bar.slice(P.length), new FieldMapBuilder(), 1)).toBeNull();
    const { configs: found } = configs([...logo('0.24.0', 'acme/m-8b'), bar, ready, ...logo('0.24.1', 'acme/m-13b'), ready]);
    expect(found.map((f) => [f.engine_version, f.model])).toEqual([
      ['0.24.0', 'acme/m-8b'],
      ['0.24.1', 'acme/m-13b'],
    ]);
  });

  it('makes a file a server log, and its logo rows pass the anchor prefilter', () => {
    expect(grammar.detect({ path: FILE, head: 'INFO 04-09 10:00:00 [utils.py:298] vLLM server version 0.24.1, serving model m\n' }).score).toBeGreaterThan(0);
    const [, , version, model] = logo('0.24.0', 'acme/m-8b');
    expect(wantsLine(grammar, version ?? '')).toBe(true);
    expect(wantsLine(grammar, model ?? '')).toBe(true);
  });
});
