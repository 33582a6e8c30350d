import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';
import { INTERLEAVED_LINE } from '../../../grammars/_shared/interleaved-line.js';

// tqdm's bars with a description: another benchmark's, a server's while it starts
const DESCRIBED_BARS = [
  'Processed prompts:  45%|████▌     | 450/1000 [00:13<00:16, 33.0it/s]',
  'Capturing CUDA graphs (decode, FULL): 100%|██████████| 67/67 [00:14<00:00,  4.71it/s]',
  'Benchmarking:   7%|#         | 7/100 [00:01<00:13,  6.90it/s]',
];

/** The runs' values of a text, and its diagnostics other than infos. */
function read(text: string) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(Buffer.from(text), asRelPath('out.log'), sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] };
  return { values: parsed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields] : [])), notes: sink.list().filter((d) => d.severity !== 'info').map((d) => d.code) };
}

describe("a progress bar with a description, another process's", () => {
  it('is an interleaved line; a value with a percent sign, a table row with one, are not', () => {
    for (const bar of DESCRIBED_BARS) expect(INTERLEAVED_LINE.test(bar), bar).toBe(true);
    for (const line of [
      'Cache hit rate:                          74.9%',
      'Acceptance rate (%):                     45.20',
      '| 45%| 12.3 | 4 |',
      'Request throughput (req/s):  12%| 3',
      'Summary: 45%|done|',
    ])
      expect(INTERLEAVED_LINE.test(line), line).toBe(false);
  });

  // inside a result block (where `label: value` read it as a column of the run), a console's table, a trtllm-bench section
  it.each([
    ['vllm-bench-serve/basic/input.log', 12],
    ['sglang-bench-serving/basic/input.txt', 10],
    ['genai-perf-console/basic/input.txt', 8],
    ['trtllm-bench/basic/input.log', 25],
    // under a report's closing rule, where it was read as a line of the report's last section
    ['trtllm-bench/layout-2026-energy/input.log', 81],
  ])('is passed over inside %s', (fixture, after) => {
    const lines = readFileSync(new URL(`../../../fixtures/${fixture}`, import.meta.url), 'utf8').split('\n');
    const whole = read(lines.join('\n'));
    for (const bar of DESCRIBED_BARS) {
      const mixed = read([...lines.slice(0, after), bar, ...lines.slice(after)].join('\n'));
      expect(mixed.values, bar).toEqual(whole.values);
      expect(mixed.notes, bar).toEqual(whole.notes);
    }
  });
});

/** What Hugging Face's tokenizers print on stderr in a process forked after they ran in parallel. */
const FORK_WARNING = [
  'huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...',
  'To disable this warning, you can either:',
  '\t- Avoid using `tokenizers` before the fork if possible',
  '\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)',
];

/** What transformers logs the first time a tokenizer encodes a text longer than the model takes. */
const SEQUENCE_LENGTH_WARNING = [
  'Token indices sequence length is longer than the specified maximum sequence length for this model (2049 > 2048). Running this sequence through the model will result in indexing errors',
];

/** absl's log line before absl::InitializeLog (gRPC's, in a process that uses it): its time in seconds since 1970. */
const ABSL_LINE = ['E0000 00:00:1732527600.123456   12345 init.cc:229] grpc_wait_for_shutdown_with_timeout() timed out.'];
/** vLLM's and SGLang's weight-loading bar, drawn as a line per update. */
const COMPLETED_BAR = ['Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:01<00:01,  1.49it/s]'];
/** Ray's own log line (a server on several nodes, a client that starts Ray). */
const RAY_LINE = ['2026-03-03 19:37:18,953\tINFO worker.py:1951 -- Started a local Ray instance. View the dashboard at 127.0.0.1:8265'];

describe("libraries' messages another process wrote: the tokenizers' fork warning, transformers' sequence length warning, Ray's, PyTorch's, glog's, absl's and Gloo's log, vLLM's text bars", () => {
  it('are interleaved lines; lines like them are not', () => {
    const others = [
      '2023-04-04 11:00:09,012 SUCC scripts.py:393 -- Submitted deploy config successfully.',
      // PyTorch's C++ log without a time, glog's, absl's before it is set up
      '[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).',
      'I1125 10:00:00.123456 12345 server.cc:42] Started',
      'W1125 10:00:00.123000 140000 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1',
      ...ABSL_LINE,
      '[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1',
      ...COMPLETED_BAR,
    ];
    for (const line of [...FORK_WARNING, ...SEQUENCE_LENGTH_WARNING, ...RAY_LINE, ...others])
      expect(INTERLEAVED_LINE.test(line), line).toBe(true);
    for (const line of [
      'To disable this warning, set quiet=True',
      '- Avoid using a draft model at high concurrency',
      'tokenizers: 4',
      'Explicitly set the environment variable TOKENIZERS_PARALLELISM=false',
      'Token indices: 4096',
      'Acceptance: 45% Completed | of drafts',
      // EvalScope's own console (its results are printed in this format)
      '2024-09-10 15:41:10,331 - evalscope - INFO - Benchmarking summary:',
    ])
      expect(INTERLEAVED_LINE.test(line), line).toBe(false);
  });

  // more than three lines in a row ended a block, a table, a report or a summary wherever they were
  // written; a line with digits in a result block cost the block line after it
  it.each([
    'vllm-bench-serve/basic/input.log',
    'vllm-bench-serve/layout-2023-legacy/input.txt',
    'vllm-bench-serve/layout-2026-rust-steady-state/input.txt',
    'sglang-bench-serving/basic/input.txt',
    'sglang-bench-serving/headerless-paste/input.txt',
    'trtllm-bench/basic/input.log',
    'genai-perf-console/basic/input.txt',
    'evalscope-perf-console/basic/input.txt',
    'vllm-multi-turn-bench/basic/input.log',
  ])('leaves the runs of %s as they are, after any of its lines', (fixture) => {
    const lines = readFileSync(new URL(`../../../fixtures/${fixture}`, import.meta.url), 'utf8').replace(/\r/g, '').split('\n');
    const whole = read(lines.join('\n'));
    expect(whole.values.length).toBeGreaterThan(0);
    for (const message of [FORK_WARNING, SEQUENCE_LENGTH_WARNING, RAY_LINE, ABSL_LINE, COMPLETED_BAR]) {
      for (let at = 1; at < lines.length; at++) {
        const mixed = read([...lines.slice(0, at), ...message, ...lines.slice(at)].join('\n'));
        expect(mixed.values, `after line ${at}`).toEqual(whole.values);
        expect(mixed.notes, `after line ${at}`).toEqual(whole.notes);
      }
    }
  });
});
