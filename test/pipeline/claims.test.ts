import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { asRelPath } from '../../src/core/types.js';
import { claimingGrammarsAtEnds, PREFIX_ONLY_SCORE, scoredClaims } from '../../src/pipeline/claims.js';

const head = (lines: readonly string[]) => ({ path: asRelPath('server.log'), head: lines.join('\n') });
const ids = (lines: readonly string[]) => scoredClaims(head(lines)).map((c) => c.g.id);

/** vLLM's import-time line and uvicorn's start, which an SGLang 0.4 server (it imports vLLM) prints too. */
const VLLM_IMPORT = ['INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.', '[2025-03-08 12:29:29] INFO:     Started server process [3207]'];
const SGLANG_OWN = ["[2025-03-08 12:29:04] server_args=ServerArgs(model_path='m/a', tp_size=4)", '[2025-03-08 12:29:30 TP0] Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, '];
const VLLM_TRACEBACK = ['INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.', 'Traceback (most recent call last):', '  File "x.py", line 1, in f', 'RuntimeError: boom'];

describe('claims of the server-log grammars', () => {
  it("leaves an SGLang log that imports vLLM to SGLang: vLLM's prefix on lines any server prints is no vLLM server", () => {
    expect(ids([VLLM_IMPORT[0] ?? '', SGLANG_OWN[0] ?? '', VLLM_IMPORT[1] ?? '', SGLANG_OWN[1] ?? ''])).toEqual(['sglang-server']);
    // at the tail too: the head's engine keeps the log
    const claims = claimingGrammarsAtEnds(head(SGLANG_OWN), head(VLLM_TRACEBACK));
    expect(claims.map((g) => g.id)).toEqual(['sglang-server']);
  });

  it('still gives a log to an engine by its prefix when no other engine shows its own lines', () => {
    expect(ids(VLLM_TRACEBACK)).toEqual(['vllm-server']);
  });

  it("keeps both engines of a log that shows each one's own lines", () => {
    const vllmStats = 'INFO 03-07 12:30:00 [loggers.py:116] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 20.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate: 0.0%';
    expect(ids([...SGLANG_OWN, vllmStats]).sort()).toEqual(['sglang-server', 'vllm-server']);
  });

  it('holds every engine to the convention: its log prefix alone claims at PREFIX_ONLY_SCORE', () => {
    const prefixOnly = {
      'vllm-server': VLLM_TRACEBACK,
      'sglang-server': ['[2025-03-08 12:29:11 TP0] Init torch distributed begin.'],
      'trtllm-serve': ['[03/08/2025-12:29:11] [TRT-LLM] [I] Starting TensorRT-LLM init.'],
    } as const;
    for (const [id, lines] of Object.entries(prefixOnly)) {
      expect([id, GRAMMARS[id as keyof typeof prefixOnly].detect(head(lines)).score]).toEqual([id, PREFIX_ONLY_SCORE]);
    }
  });
});
