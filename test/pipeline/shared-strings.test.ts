import { describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import type { FileOutcome } from '../../src/pipeline/process-file.js';
import { shareStrings, StringPool } from '../../src/pipeline/shared-strings.js';

function outcome(path: string, quotedFrom: string): FileOutcome {
  return {
    report: { path: asRelPath(path), status: 'parsed', formats: ['vllm-bench-serve', 'vllm-server'], bytes: 10, runs: 1, records: 3, errors: 0, warnings: 0, infos: 0 },
    records: [
      { format: 'vllm-bench-serve', record: { kind: 'run', at: { file: asRelPath(path), line: 4, column: 1 }, label: 'c=8', complete: true, fields: { model: 'org/model', max_concurrency: 8, backend: 'vllm', long: 'x'.repeat(300) }, lines: {}, lastLine: 30 } },
      { format: 'vllm-server', record: { kind: 'config', at: { file: asRelPath(quotedFrom), line: 2, column: 1 }, origin: 'server-log', fields: { model: 'org/model', tensor_parallel_size: 2 }, lines: {} } },
      { format: 'vllm-server', record: { kind: 'failure', at: { file: asRelPath(path), line: 9, column: 1 }, exception: 'RuntimeError', message: 'boom' } },
    ],
    diagnostics: [],
  };
}

describe('shareStrings', () => {
  it('leaves every value of an outcome as it was, a record of another file included', () => {
    const pool = new StringPool();
    for (const [path, other] of [['a/serve.log', 'a/serve.log'], ['b/serve.log', 'b/notes.md'], ['a/serve.log', 'c/x.log']]) {
      const expected = structuredClone(outcome(path as string, other as string));
      expect(shareStrings(outcome(path as string, other as string), pool)).toEqual(expected);
    }
  });

  it('gives back each string it is handed, pooled or not', () => {
    const pool = new StringPool();
    const long = 'y'.repeat(1000);
    expect([pool.of('run'), pool.of('run'), pool.of(long), pool.of('')]).toEqual(['run', 'run', long, '']);
  });
});
