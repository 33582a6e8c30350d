import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { tracebackLines } from '../../src/ingest/python-tracebacks.js';
import { parseSource } from '../../src/pipeline/process-file.js';

/** What Python prints at shutdown for an exception it could not raise. */
const IGNORED = [
  'Exception ignored in: <function _releaseLock at 0x7f0000000000>',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.12/logging/__init__.py", line 243, in _releaseLock',
  '    def _releaseLock():',
  'KeyboardInterrupt: ',
];

/** Python 3.11's markers under a frame's code, and a chained traceback. */
const CHAINED = [
  'Traceback (most recent call last):',
  '  File "/opt/venv/lib/python3.12/site-packages/httpx/_transports/default.py", line 101, in map_httpcore_exceptions',
  '    yield',
  '  File "/opt/venv/lib/python3.12/site-packages/httpx/_transports/default.py", line 394, in handle_async_request',
  '    resp = await self._pool.handle_async_request(req)',
  '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
  'httpcore.ReadTimeout',
  '',
  'The above exception was the direct cause of the following exception:',
  '',
  'Traceback (most recent call last):',
  '  File "/app/serve.py", line 12, in <module>',
  '    main()',
  'httpx.ReadTimeout: timed out',
];

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe('tracebackLines', () => {
  it('gives every line of a traceback: the line above it, its frames with their code, its exception line, its chain', () => {
    expect(tracebackLines(['before', ...IGNORED, 'after'])).toEqual(range(1, 6));
    expect(tracebackLines([...CHAINED, 'Successful requests:                     160'])).toEqual(range(0, CHAINED.length));
  });

  it("ends a traceback at a line that is neither a frame, its code nor an exception's: a benchmark's line is never one", () => {
    const frames = CHAINED.slice(0, 5);
    for (const next of ['Successful requests:                     160', 'Concurrency:                             7.98', '============ Serving Benchmark Result ============', 'Mean TTFT (ms): 12.5']) {
      expect(tracebackLines([...frames, next]), next).toEqual(range(0, 5));
    }
  });

  it('gives none for a traceback with no frame, one not at its line start (a YAML or JSON string), or text naming one', () => {
    expect(tracebackLines(['Traceback (most recent call last):', 'Successful requests: 160'])).toEqual([]);
    expect(tracebackLines(['error: |', '  Traceback (most recent call last):', '    File "x.py", line 1, in f', '  ValueError: x'])).toEqual([]);
    expect(tracebackLines(['The Traceback (most recent call last): line starts it'])).toEqual([]);
  });
});

/**
 * The runs' values of a text, and its diagnostics other than infos and a server log's (a
 * trtllm-bench log is its engine's log too, whose grammar reads a traceback as a crash).
 */
function read(text: string) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(Buffer.from(text), asRelPath('out.log'), sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] };
  const notes = sink.list().filter((d) => d.severity !== 'info' && !d.code.startsWith('log/') && !d.code.startsWith('link/'));
  return { values: parsed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields] : [])), notes: notes.map((d) => d.code) };
}

describe("a traceback another process wrote into a benchmark's output", () => {
  // more lines of text than a block, a table or a report is read across: each ended it there
  it.each([
    'vllm-bench-serve/basic/input.log',
    'sglang-bench-serving/basic/input.txt',
    'trtllm-bench/basic/input.log',
    'genai-perf-console/basic/input.txt',
    'evalscope-perf-console/basic/input.txt',
    'vllm-multi-turn-bench/basic/input.log',
  ])('leaves the runs of %s as they are, after any of its lines', (fixture) => {
    const lines = readFileSync(new URL(`../../fixtures/${fixture}`, import.meta.url), 'utf8').replace(/\r/g, '').split('\n');
    const whole = read(lines.join('\n'));
    expect(whole.values.length).toBeGreaterThan(0);
    for (const traceback of [IGNORED, CHAINED]) {
      for (let at = 1; at < lines.length; at++) {
        const mixed = read([...lines.slice(0, at), ...traceback, ...lines.slice(at)].join('\n'));
        expect(mixed.values, `after line ${at}`).toEqual(whole.values);
        expect(mixed.notes, `after line ${at}`).toEqual(whole.notes);
      }
    }
  });

  it("is counted among a run's lines, and is still a crash in a server's log", () => {
    const block = readFileSync(new URL('../../fixtures/vllm-bench-serve/basic/input.log', import.meta.url), 'utf8').split('\n');
    const at = block.findIndex((l) => l.startsWith('Successful requests:'));
    const sink = new DiagnosticCollector();
    const source = fromBytes(Buffer.from([...block.slice(0, at + 1), ...IGNORED, ...block.slice(at + 1)].join('\n')), asRelPath('out.log'), sink);
    if (source) parseSource(source, sink);
    expect(sink.list().filter((d) => d.code === 'block/interleaved-line').map((d) => [d.line, d.message.startsWith('5 interleaved lines')])).toEqual([[at + 2, true]]);
    // the server grammars read lines one by one, tracebacks too
    const server = ['INFO 01-05 10:00:00 [api_server.py:1880] vLLM API server version 0.11.0', ...IGNORED.slice(1, -1), 'KeyboardInterrupt: stopped', ''].join('\n');
    const crashed = new DiagnosticCollector();
    const log = fromBytes(Buffer.from(server), asRelPath('serve.log'), crashed);
    const records = log ? parseSource(log, crashed).records : [];
    expect(records.filter((r) => r.record.kind === 'failure').map((r) => r.record.kind === 'failure' && r.record.exception)).toEqual(['KeyboardInterrupt']);
  });
});
