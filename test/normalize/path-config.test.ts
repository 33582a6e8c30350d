import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configFromPath, segmentConfig } from '../../src/normalize/path-config.js';
import { compilePathTemplate, configFromTemplate } from '../../src/normalize/path-template.js';

describe('configFromPath', () => {
  it('is every segment read on its own, the file name (without extension) first, then each folder up to the root', () => {
    const segment = fc.array(fc.constantFrom('k8', 'c16', 'tp2', 'pp2', 'nosd', 'eagle3', 'draft-model', 'sharegpt', 'fp8', 'bf16', 'sglang', 'run', 'conc32', 'qps4', '2xH100', 'eagle-k4'), { minLength: 1, maxLength: 3 }).map((t) => t.join('-'));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.constantFrom('.log', '.json', '.txt', ''), (segments, extension) => {
        const expected: Record<string, unknown> = {};
        segments.toReversed().forEach((s) => {
          for (const [k, v] of Object.entries(segmentConfig(s))) if (!(k in expected)) expected[k] = v;
        });
        expect(configFromPath(`${segments.join('/')}${extension}`)).toEqual(expected);
      }),
    );
  });
  it('reads the draft-model sweep layout', () => {
    expect(configFromPath('k8/tp-results-draft-model/bench-draft-model-c16.log')).toEqual({ spec_method: 'draft_model', num_spec_tokens: 8, max_concurrency: 16 });
  });
  it('reads no-SD runs', () => {
    expect(configFromPath('tp-results/bench-nosd-c4.log')).toEqual({ spec_method: 'none', max_concurrency: 4 });
    expect(configFromPath('no-sd/run.log')).toEqual({ spec_method: 'none' });
  });
  it('reads method folders and method-K folders', () => {
    expect(configFromPath('eagle/Task_ShareGPT/out.txt')).toEqual({ spec_method: 'eagle', dataset: 'sharegpt' });
    expect(configFromPath('eagle3-k7/run.log')).toEqual({ spec_method: 'eagle3', num_spec_tokens: 7 });
    expect(configFromPath('eagle3_k5/run.log')).toEqual({ spec_method: 'eagle3', num_spec_tokens: 5 });
    expect(configFromPath('ngram/a.log').spec_method).toBe('ngram');
    expect(configFromPath('mtp/a.log').spec_method).toBe('mtp');
    expect(configFromPath('medusa/a.log').spec_method).toBe('medusa');
  });
  it("takes nothing from the name of a comparison (what it compares is no run's configuration)", () => {
    expect(configFromPath('eagle3-vs-baseline.md')).toEqual({});
    expect(configFromPath('fp8_comparison/tp2-c16.log')).toEqual({ tp: 2, max_concurrency: 16 });
    expect(configFromPath('notes/ngram-versus-eagle3-k4.md')).toEqual({});
  });
  it("gives a baseline's run no method, and not the method of a folder above it (a project's name)", () => {
    // (null: the segment's word, no value: the path layer sets nothing)
    expect(configFromPath('eagle3-spec-dec/results/01_baseline.txt')).toEqual({ spec_method: null, num_spec_tokens: null });
    expect(configFromPath('eagle3-spec-dec/results/02_spec_dec_drafttokens2.txt')).toEqual({ spec_method: 'eagle3', num_spec_tokens: 2 });
    expect(configFromPath('eagle3-k4/baseline-c8.log')).toEqual({ spec_method: null, num_spec_tokens: null, max_concurrency: 8 });
    expect(configFromPath('runs/nospec-c8.log')).toEqual({ spec_method: 'none', max_concurrency: 8 });
  });
  it("takes no K from a model's name that goes on with one (Kimi K2)", () => {
    expect(configFromPath('kimi-k26-eagle3-npu.md')).toEqual({ spec_method: 'eagle3' });
    expect(configFromPath('Kimi-K2.6/eagle3-k4/run.log')).toEqual({ spec_method: 'eagle3', num_spec_tokens: 4 });
    expect(configFromPath('kimi-k2-instruct/k8/c16.log')).toEqual({ num_spec_tokens: 8, max_concurrency: 16 });
  });

  it('reads parallelism', () => {
    expect(configFromPath('tp8/a.log')).toEqual({ tp: 8 });
    expect(configFromPath('tp2pp4/a.log')).toEqual({ tp: 2, pp: 4 });
    expect(configFromPath('run-dp2-ep8/a.log')).toEqual({ dp: 2, ep: 8 });
  });
  it('reads load: bs, qps, concurrency, c, conc', () => {
    expect(configFromPath('bs=4/a.log')).toEqual({ max_concurrency: 4 });
    expect(configFromPath('bs4/a.log')).toEqual({ max_concurrency: 4 });
    expect(configFromPath('qps10/a.log')).toEqual({ request_rate: 10 });
    expect(configFromPath('qps-inf/qpsinf.log')).toEqual({ request_rate: Infinity });
    expect(configFromPath('concurrency32/a.log')).toEqual({ max_concurrency: 32 });
    expect(configFromPath('conc32/a.log')).toEqual({ max_concurrency: 32 });
    expect(configFromPath('x/c32.log')).toEqual({ max_concurrency: 32 });
  });
  it('reads precision', () => {
    expect(configFromPath('fp8/a.log')).toEqual({ quantization: 'fp8' });
    expect(configFromPath('llama-bf16/a.log')).toEqual({ dtype: 'bfloat16' });
  });
  it('prefers the segment nearest the file', () => {
    expect(configFromPath('c8/eagle/bench-c16.log')).toEqual({ max_concurrency: 16, spec_method: 'eagle' });
  });
  it('does not read words that only look like flags', () => {
    expect(configFromPath('k8s-cluster/tp-results/llama-70b/out.log')).toEqual({});
  });
});

describe('path templates', () => {
  it('reads declared columns from the end of the path', () => {
    const t = compilePathTemplate('{engine}/{label}/c{max_concurrency}.log');
    expect(configFromTemplate(t, 'root/sglang/fp8-tuned/c32.log')).toEqual({ engine: 'sglang', label: 'fp8-tuned', max_concurrency: 32 });
    expect(configFromTemplate(t, 'sglang/c32.log')).toEqual({});
  });
  it('supports * wildcard segments', () => {
    const t = compilePathTemplate('{model}/*/rate-{request_rate}.json');
    expect(configFromTemplate(t, 'llama/2025-01-01/rate-inf.json')).toEqual({ model: 'llama', request_rate: Infinity });
  });
  it('refuses a template without placeholders', () => {
    expect(() => compilePathTemplate('a/b.log')).toThrow(/no \{column\}/);
  });
});
