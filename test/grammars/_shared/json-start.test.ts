import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looksLikeJson } from '../../../grammars/_shared/json/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';

describe('looksLikeJson', () => {
  it('is the start of an object, or of an array whose first element starts like a JSON value', () => {
    for (const head of ['{"a": 1}', '  {\n', '[', '[\n  {"a": 1}', '[]', '[["x"]]', '["x", 1]', '[1, 2]', '[-1.5e3]', '[12', '[true, false]', '[null]', '{"a": 1}\n{"a": 2}\n', '[\nWARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out\n  {"a": 1}']) {
      expect(looksLikeJson(head), head).toBe(true);
    }
  });

  it("is not a log line's bracketed prefix, nor text", () => {
    const lines = [
      '[rank0]:[W1222 10:55:31.124628071 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname',
      '[2026-01-05 10:00:10 TP0] Decode batch. #running-req: 64',
      '[TensorRT-LLM][INFO] Number of tokens per block: 32.',
      '[11/21/2025-10:00:10] [TRT-LLM] [I] Starting',
      '[W128 04:18:09.073114819 ProcessGroupNCCL.cpp:1524] Warning',
      '============ Serving Benchmark Result ============',
    ];
    for (const head of lines) expect(looksLikeJson(head), head).toBe(false);
  });
});

describe('a text output whose first line is a bracketed log line', () => {
  it('is read as its format (vLLM startup benchmark after a PyTorch warning)', () => {
    const text = readFileSync(new URL('../../../fixtures/vllm-bench-startup/basic/input.txt', import.meta.url), 'utf8');
    const read = (t: string) => {
      const sink = new DiagnosticCollector();
      const source = fromBytes(Buffer.from(t), asRelPath('startup.txt'), sink);
      return source ? parseSource(source, sink).records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields] : [])) : [];
    };
    const whole = read(text);
    expect(whole).toHaveLength(1);
    expect(read(`[rank0]:[W1222 10:55:31.124628071 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called\n${text}`)).toEqual(whole);
  });
});
