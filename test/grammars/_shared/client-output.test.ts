import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';
import { LOG_LINE } from '../../../grammars/_shared/serving-block/tokens.js';

const rel = asRelPath('out.log');

/** What the pipeline reads from a text: formats, runs' values and their lines, diagnostics. */
function read(text: string) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(Buffer.from(text), rel, sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] };
  const runs = parsed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record] : []));
  return { formats: parsed.formats, runs, diagnostics: sink.list().map((d) => `${d.line} ${d.severity} ${d.code}`) };
}

/** A fixture's text with `line` written after its line `after`. */
function teed(fixture: string, after: number, line: string): string {
  const lines = readFileSync(new URL(`../../../fixtures/${fixture}`, import.meta.url), 'utf8').split('\n');
  return [...lines.slice(0, after), line, ...lines.slice(after)].join('\n');
}

// what a server writes to the terminal or file a benchmark's output goes to (`tee`, `2>&1`)
const SERVER_LINES = [
  'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out',
  '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK',
  '[TensorRT-LLM][INFO] Number of tokens per block: 32.',
  '[2026-01-05 10:00:10 TP0] Decode batch. #running-req: 64, #token: 20480, token usage: 0.12, gen throughput (token/s): 2765.43, #queue-req: 0',
  '(RayWorkerWrapper pid=263, ip=10.0.16.95) INFO 01-30 11:53:53 model_runner.py:1115] Loading model weights took 7.5100 GB',
  '(pid=1234) RuntimeError: CUDA error: an illegal memory access was encountered',
  '[rank0]:[W1222 10:55:31.124628071 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname to a (local) address.',
  '[W128 04:18:09.073114819 ProcessGroupNCCL.cpp:1524] Warning: WARNING: destroy_process_group() was not called before program exit',
  'gpu-node-1:1234:5678 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>',
  '/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:128: UserWarning: CUDA initialization: unexpected error',
  // Python's logging in its default format, from a client on the OpenAI SDK (httpx) sharing the terminal
  'INFO:httpx:HTTP Request: POST http://localhost:8000/v1/completions "HTTP/1.1 200 OK"',
  // loguru's default format; Rust's tracing (TGI's router)
  '2025-01-01 12:00:00.000 | INFO     | guidellm.backend.openai:text_completions:203 - Request 12 done in 1.52 s',
  '2024-07-01T12:00:00.123456Z  INFO text_generation_router::server: router/src/server.rs:1924: Success',
];

describe("a server's lines tee'd into a benchmark's console output", () => {
  it("are log lines: vLLM with its process prefix, uvicorn access lines with it, TensorRT-LLM C++ logger, Ray, PyTorch, NCCL, a Python warning, Python's logging, loguru, Rust's tracing", () => {
    for (const line of SERVER_LINES) expect(LOG_LINE.test(line), line).toBe(true);
    expect(LOG_LINE.test('Successful requests:                     100')).toBe(false);
    expect(LOG_LINE.test('[TensorRT-LLM] Benchmark report')).toBe(false);
    for (const line of ['Model: (pid=7)', 'Backend: vllm.py:12: fine', '(ms) pid=3', 'W1222 10:55:31 not bracketed', 'INFO: done', 'Info:x:'])
      expect(LOG_LINE.test(line), line).toBe(false);
    expect(LOG_LINE.test('WARNING:root:No tokenizer given')).toBe(true);
    // a Windows path; a path is read up to its first colon (a long line without spaces is not read through)
    expect(LOG_LINE.test('C:\\Python312\\Lib\\site-packages\\torch\\cuda\\__init__.py:128: UserWarning: CUDA initialization')).toBe(true);
  });

  it.each(SERVER_LINES)('leave a vLLM multi-turn summary detected and its values read (%s)', (server) => {
    const whole = read(readFileSync(new URL('../../../fixtures/vllm-multi-turn-bench/basic/input.log', import.meta.url), 'utf8'));
    // between the summary's title and its first value: what detection looks for
    const mixed = read(teed('vllm-multi-turn-bench/basic/input.log', 2, server));
    expect(mixed.formats).toContain('vllm-multi-turn-bench');
    expect(mixed.runs.map((r) => r.fields)).toEqual(whole.runs.map((r) => r.fields));
    // every value at its line in the file: one further down past the inserted line
    const moved = (n: number) => (n > 2 ? n + 1 : n);
    expect(mixed.runs.map((r) => r.lines)).toEqual(whole.runs.map((r) => Object.fromEntries(Object.entries(r.lines).map(([k, n]) => [k, moved(n)]))));
    expect(mixed.diagnostics.filter((d) => !d.includes(' info '))).toEqual(whole.diagnostics.filter((d) => !d.includes(' info ')));
    // counted, unless a server log's grammar reads it (SGLang's batch line: a stats point of its own)
    if (mixed.formats.includes('sglang-server')) expect(mixed.diagnostics).not.toContain('3 info block/interleaved-line');
    else expect(mixed.diagnostics).toContain('3 info block/interleaved-line');
  });

  it("leave a GenAI-Perf table read when one comes between the table's title and its top border", () => {
    const whole = read(readFileSync(new URL('../../../fixtures/genai-perf-console/basic/input.txt', import.meta.url), 'utf8'));
    for (const server of SERVER_LINES) {
      const mixed = read(teed('genai-perf-console/basic/input.txt', 2, server));
      expect(mixed.runs.map((r) => r.fields), server).toEqual(whole.runs.map((r) => r.fields));
    }
  });

  it('leave a value the file ends inside unread, and a file ending in one of them whole', () => {
    // `requests_per_sec = 0.769` cut to `0.7` (line 5, with the server's line at 3)
    const cut = teed('vllm-multi-turn-bench/basic/input.log', 2, SERVER_LINES[0] as string).split('\n').slice(0, 5).join('\n').slice(0, -2);
    const inside = read(cut);
    expect(inside.runs.map((r) => r.fields.request_throughput)).not.toContain(0.7);
    expect(inside.diagnostics).toContain('5 warning read/cut-line');
    // the file's last line is the server's, without a line break: the summary's lines are whole
    const lines = readFileSync(new URL('../../../fixtures/vllm-multi-turn-bench/basic/input.log', import.meta.url), 'utf8').replace(/\n$/, '');
    const ended = read(`${lines}\n${SERVER_LINES[0]}`);
    expect(ended.diagnostics.filter((d) => d.includes('cut-line'))).toEqual([]);
    expect(ended.runs.map((r) => r.fields)).toEqual(read(`${lines}\n`).runs.map((r) => r.fields));
  });
});
