import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPaths } from '../../src/pipeline/scan.js';

/**
 * A server's crash whose exception type names no `Error` or `Exception`, printed without the
 * logger's prefix: the server grammars' stream prefilter must pass its last line, or the crash is
 * recorded as a traceback cut short.
 */
const HEADS: Record<string, string[]> = {
  vllm: ['INFO 11-25 10:00:00 [api_server.py:1000] vLLM API server version 0.11.0', 'INFO 11-25 10:00:01 [api_server.py:1010] Starting vLLM API server 0 on http://0.0.0.0:8000'],
  sglang: ['[2026-11-25 10:00:00] server_args=ServerArgs(model_path=\'m\', tp_size=1)', '[2026-11-25 10:00:01] The server is fired up and ready to roll!'],
  trtllm: ['[11/25/2026-10:00:00] [TRT-LLM] [I] Starting TensorRT-LLM init.', 'INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)'],
};
const EXCEPTIONS: Array<[line: string, type: string]> = [
  ['httpx.ReadTimeout: timed out', 'httpx.ReadTimeout'],
  ['StopIteration', 'StopIteration'],
  ['StopAsyncIteration', 'StopAsyncIteration'],
  ['GeneratorExit', 'GeneratorExit'],
  ['triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448', 'triton.runtime.errors.OutOfResources'],
  ['ray.exceptions.RayActorDied: The actor died unexpectedly before finishing this task.', 'ray.exceptions.RayActorDied'],
];

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-uncommon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crashes whose exception type names no error, in server logs', () => {
  for (const [engine, head] of Object.entries(HEADS)) {
    it(`${engine}: the traceback ends on its exception line`, () => {
      const folder = path.join(dir, engine);
      mkdirSync(folder);
      EXCEPTIONS.forEach(([exception], i) => {
        const lines = [...head, 'Traceback (most recent call last):', '  File "/srv/app.py", line 10, in handle', '    await step()', '  File "/srv/step.py", line 20, in step', '    raise Failure()', exception, ''];
        writeFileSync(path.join(folder, `${engine}-${i}.log`), lines.join('\n'));
      });
      const failures = scanPaths([folder]).records.flatMap((r) => (r.record.kind === 'failure' ? [[r.record.exception, r.record.at.line]] : []));
      expect(failures.sort()).toEqual(EXCEPTIONS.map(([, type]) => [type, 8]).sort());
    });
  }
});

