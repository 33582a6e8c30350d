import { describe, expect, it } from 'vitest';
import { percentileName } from '../../../grammars/guidellm-json/distribution.js';
import { grammar } from '../../../grammars/guidellm-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

describe('guidellm-json', () => {
  it('names GuideLLM percentiles', () => {
    expect(['p001', 'p01', 'p05', 'p10', 'p50', 'p99', 'p999', 'mean', 'p1'].map(percentileName)).toEqual(['p0.1', 'p1', 'p5', 'p10', null, 'p99', 'p99.9', null, null]);
  });

  it('detects a benchmarks report but not other JSON with a benchmarks array', () => {
    const path = asRelPath('b.json');
    expect(grammar.detect({ path, head: '{"benchmarks": [{"type_": "generative_benchmark"' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '{"benchmarks": [{"name": "x", "time": 3}]}' }).score).toBe(0);
  });

  it('maps each strategy to its load column and converts seconds to ms', () => {
    const bench = (strategy: object) => ({ config: { strategy }, metrics: { request_latency: { successful: { mean: 0.25 } } } });
    const text = JSON.stringify({
      benchmarks: [bench({ type_: 'constant', rate: 3 }), bench({ type_: 'throughput', max_concurrency: 64 }), bench({ type_: 'asynchronous' })],
    });
    expect(runFields(runGrammar(grammar, text).records)).toEqual([
      { mean_e2el_ms: 250, strategy: 'constant', request_rate: 3, client: 'guidellm' },
      { mean_e2el_ms: 250, strategy: 'throughput', max_concurrency: 64, client: 'guidellm' },
      { mean_e2el_ms: 250, strategy: 'asynchronous', client: 'guidellm' },
    ]);
  });

  it('reads the data source of every report shape: 0.2 / 0.3 request_loader, 0.4 args, schema version 2 config.spec', () => {
    const metrics = { request_latency: { successful: { mean: 1 } } };
    const dataset = (report: object): unknown => runFields(runGrammar(grammar, JSON.stringify(report)).records)[0]?.dataset;
    expect(dataset({ benchmarks: [{ request_loader: { data: 'hf:acme/prompts' }, metrics }] })).toBe('hf:acme/prompts');
    expect(dataset({ args: { data: ['acme/prompts.jsonl'] }, benchmarks: [{ metrics }] })).toBe('acme/prompts.jsonl');
    expect(dataset({ config: { spec: { data: [{ kind: 'huggingface', source: 'acme/prompts' }] } }, benchmarks: [{ metrics }] })).toBe('acme/prompts');
    expect(dataset({ config: { spec: { data: [{ kind: 'json_file', path: 'prompts.json' }] } }, benchmarks: [{ metrics }] })).toBe('prompts.json');
  });

  it('reports benchmarks without metrics and files without benchmarks', () => {
    const { records, diagnostics } = runGrammar(grammar, '{"benchmarks": [{"config": {}}]}\n{"other": 1}');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['1 json/not-a-result', '2 json/not-a-result']);
  });
});
