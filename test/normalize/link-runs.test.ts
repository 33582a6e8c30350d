import { describe, expect, it } from 'vitest';
import type { ConfigRecord, FailureRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { indexSources, linkServer } from '../../src/normalize/link-runs.js';
import type { ConfigSource } from '../../src/normalize/server-sources.js';

function source(file: string, fields: ConfigRecord['fields'], failed = false): ConfigSource {
  const at = { file: asRelPath(file), line: 1, column: 1 };
  const failures: FailureRecord[] = failed ? [{ kind: 'failure', at, exception: 'torch.OutOfMemoryError', message: 'CUDA out of memory' }] : [];
  return { file: asRelPath(file), kind: 'server', configs: [{ kind: 'config', at, origin: 'server-log', fields, lines: {} }], timeline: [], failures, span: null };
}

describe('linkServer', () => {
  const vllm = source('runs/serve-a.log', { engine: 'vllm', model: 'm' });
  const sglang = source('runs/serve-b.log', { engine: 'sglang', model: 'm' });
  const crashed = source('runs/serve-c.log', { engine: 'vllm', model: 'm' }, true);

  it('never links a run to a server of another engine', () => {
    expect(linkServer('runs/bench.log', null, indexSources([vllm, sglang]), { engine: 'sglang', client: 'sglang-bench-serving' }).source).toBe(sglang);
  });

  it('prefers a server that started over one that crashed', () => {
    expect(linkServer('runs/bench.log', null, indexSources([crashed, vllm]), { engine: 'vllm', client: 'vllm-bench-serve' }).source).toBe(vllm);
  });

  it('never links a run to a server that crashed before it was ready and logged no stats', () => {
    const failedStart = source('runs/serve-d.log', { engine: 'vllm', model: 'm', server_status: 'failed-start' }, true);
    expect(linkServer('runs/bench.log', null, indexSources([failedStart]), { engine: 'vllm', client: 'vllm-bench-serve' })).toEqual({ source: null, tied: [] });
    // stats lines say it served, whatever its start looked like (a ready line an engine release prints differently)
    const served: ConfigSource = { ...failedStart, timeline: [{ kind: 'timeline', at: failedStart.configs[0]!.at, series: { length: 3 } as never }] };
    expect(linkServer('runs/bench.log', null, indexSources([served]), { engine: 'vllm', client: 'vllm-bench-serve' }).source).toBe(served);
    // a crash after it was ready: it served the runs before the crash
    expect(linkServer('runs/bench.log', null, indexSources([crashed]), { engine: 'vllm', client: 'vllm-bench-serve' }).source).toBe(crashed);
  });

  it('links offline benchmarks to no server', () => {
    expect(linkServer('runs/bench.log', null, indexSources([vllm]), { engine: 'trtllm', client: 'trtllm-bench' })).toEqual({ source: null, tied: [] });
  });

  it('links an offline benchmark to the engine logged above it in its own output, never to a server beside it', () => {
    const engine = { ...source('runs/latency.log', { engine: 'vllm', model: 'own' }) };
    const index = indexSources([vllm], [engine]);
    const run = { engine: 'vllm', client: 'vllm-bench-latency' };
    expect(linkServer('runs/latency.log', null, index, run, [{ file: asRelPath('runs/latency.log'), line: 9 }]).source).toBe(engine);
    // printed in a file with no engine log: a vLLM server beside it is not its engine
    expect(linkServer('runs/other.log', null, index, run, [{ file: asRelPath('runs/other.log'), line: 9 }])).toEqual({ source: null, tied: [] });
  });

  it('links an offline trtllm-bench run to its own --iteration_log beside it, and no other run to it', () => {
    const stats = (file: string): ConfigSource => ({ ...source(file, { engine: 'trtllm' }), configs: [], inProcessOf: 'trtllm-bench' });
    const run = { engine: 'trtllm', client: 'trtllm-bench' };
    const own = stats('runs/iteration.log');
    expect(linkServer('runs/report.json', null, indexSources([vllm, own]), run).source).toBe(own);
    // a log in another folder is another invocation's
    expect(linkServer('other/report.json', null, indexSources([stats('runs/iteration.log')]), run).source).toBeNull();
    // an online benchmark against a server is never given an offline benchmark's engine statistics
    expect(linkServer('runs/genai-perf.json', null, indexSources([own]), { engine: 'trtllm', client: 'genai-perf' }).source).toBeNull();
    // several: the one named like the run, a tie said
    const c8 = stats('runs/iter_c8.log');
    const c16 = stats('runs/iter_c16.log');
    expect(linkServer('runs/report_c16.json', null, indexSources([c8, c16]), run).source).toBe(c16);
    expect(linkServer('runs/report.json', null, indexSources([c8, c16]), run)).toEqual({ source: null, tied: [c8, c16] });
  });

  it('reports a tie instead of guessing', () => {
    const twin = source('runs/serve-d.log', { engine: 'vllm', model: 'm' });
    expect(linkServer('runs/bench.log', null, indexSources([vllm, twin])).tied).toEqual([vllm, twin]);
  });
});
