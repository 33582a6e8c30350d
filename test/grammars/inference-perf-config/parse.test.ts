import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../../grammars/index.js';
import { grammar } from '../../../grammars/inference-perf-config/index.js';
import type { ConfigRecord } from '../../../src/core/records.js';
import { asRelPath } from '../../../src/core/types.js';
import { fixtureCases } from '../../helpers/fixtures.js';
import { runGrammar } from '../../helpers/grammar-run.js';

const path = asRelPath('config.yaml');
const detects = (head: string) => grammar.detect({ path, head }).score > 0;

function configOf(text: string): { record: ConfigRecord | undefined; diagnostics: string[] } {
  const { records, diagnostics } = runGrammar(grammar, text);
  const configs = records.filter((r): r is ConfigRecord => r.kind === 'config');
  expect(configs.length).toBeLessThanOrEqual(1);
  return { record: configs[0], diagnostics: diagnostics.map((d) => `${d.code} ${d.message}`) };
}

const fieldsOf = (text: string) => configOf(text).record?.fields ?? {};

/** A config as the README's examples write it, with the data section given. */
const config = (data: string, server = 'server:\n  type: vllm\n  model_name: acme/chat-7b\n  base_url: http://0.0.0.0:8000') =>
  `load:\n  type: constant\n  stages:\n  - rate: 1\n    duration: 30\napi:\n  type: chat\n${server}\n${data}\n`;

describe('inference-perf-config detection', () => {
  it('claims a run config by its load stages (or sweep) beside its server, api or data sections', () => {
    expect(detects(config('data:\n  type: shareGPT'))).toBe(true);
    expect(detects('api:\n  type: completion\n  streaming: true\ndata:\n  type: random\nload:\n  type: poisson\n  interval: 1.0\n  stages:\n  - rate: 2.0\n')).toBe(true);
    expect(detects('load:\r\n  type: constant\r\n  sweep:\r\n    type: linear\r\nserver:\r\n  type: sglang\r\n')).toBe(true);
  });

  it('leaves other YAML alone: no top-level load, no stages under it, or nothing of the config beside it', () => {
    // a Kubernetes Job that runs inference-perf, its config mounted from a ConfigMap
    expect(detects('apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n      - name: inference-perf\n        args: ["--config_file", "/cfg/config.yml"]\n')).toBe(false);
    // a benchlens sweep file
    expect(detects('engine: vllm\nmodel: acme/chat-7b\nvariants:\n  base: {}\nconcurrency: [1, 4]\n')).toBe(false);
    expect(detects('load:\n  type: constant\nserver:\n  type: vllm\n')).toBe(false);
    expect(detects('load:\n  stages:\n  - rate: 1\nreport:\n  request_lifecycle: {}\n')).toBe(false);
    expect(detects('config:\n  load:\n    stages: []\n  server:\n    type: vllm\n')).toBe(false);
  });

  it('claims its own fixtures and no other grammar does; it claims no other fixture', () => {
    for (const c of fixtureCases()) {
      const head = readFileSync(c.input, 'utf8').slice(0, 64 * 1024);
      const input = { path: asRelPath(c.input.split('/').at(-1) ?? ''), head };
      const claims = Object.values(GRAMMARS).filter((g) => g.detect(input).score > 0).map((g) => g.id);
      if (c.format === 'inference-perf-config') expect(claims).toEqual(['inference-perf-config']);
      else expect(claims).not.toContain('inference-perf-config');
    }
  });
});

describe('inference-perf-config columns', () => {
  it('reads a key written twice as PyYAML does (the last), with a warning', () => {
    const { record, diagnostics } = configOf(config('data:\n  type: shareGPT', 'server:\n  type: vllm\n  model_name: acme/chat-7b\n  model_name: acme/chat-13b'));
    expect(record?.fields.model).toBe('acme/chat-13b');
    expect(record?.lines?.model).toBe(11);
    expect(diagnostics).toEqual(['parse/repeated-key key "model_name" appears twice in one mapping (first on line 10): kept this one, as the tool\'s YAML reader does']);
  });

  it('gives engine from server.type, model from server.model_name, each at its line', () => {
    const { record } = configOf(config('data:\n  type: shareGPT\n  path: /data/ShareGPT_V3_unfiltered_cleaned_split.json'));
    expect(record?.origin).toBe('bench-config');
    expect(record?.fields).toEqual({
      engine: 'vllm',
      model: 'acme/chat-7b',
      endpoint_type: 'chat',
      dataset: 'sharegpt',
      dataset_path: '/data/ShareGPT_V3_unfiltered_cleaned_split.json',
      strategy: 'constant',
      client: 'inference-perf',
    });
    expect(record?.lines).toMatchObject({ strategy: 2, endpoint_type: 7, engine: 9, model: 10, dataset: 13, dataset_path: 14 });
    // the stages are the stage reports' own: no load point; the client names whose runs it describes
    expect(record?.fields).not.toHaveProperty('request_rate');
  });

  it('names the engines benchlens knows; the mock server is none', () => {
    const engineOf = (type: string) => fieldsOf(config('data:\n  type: mock', `server:\n  type: ${type}\n  base_url: http://x`)).engine;
    expect(['vllm', 'sglang', 'tgi', 'mock', 'VLLM'].map(engineOf)).toEqual(['vllm', 'sglang', 'tgi', undefined, 'vllm']);
  });

  it('reads booleans as PyYAML does (YAML 1.1: yes and no)', () => {
    const f = fieldsOf('load:\n  stages:\n  - rate: 1\n    duration: 10\napi:\n  type: completion\n  streaming: yes\nserver:\n  type: vllm\n  base_url: http://x\n  ignore_eos: no\n');
    expect([f.streaming, f.ignore_eos]).toEqual([true, false]);
  });

  it('takes a fixed length as input_len / output_len, and a drawn one as its center and spread', () => {
    const lengths = (dist: string) => {
      const f = fieldsOf(config(`data:\n  type: random\n  input_distribution: ${dist}\n  output_distribution: {type: fixed, mean: 128}`));
      return Object.fromEntries(Object.entries(f).filter(([k]) => k.startsWith('input_len')));
    };
    expect(lengths('{type: fixed, mean: 1000.7}')).toEqual({ input_len: 1000 });
    expect(lengths('{min: 2048, max: 2048, mean: 2048}')).toEqual({ input_len: 2048 });
    expect(lengths('{min: 100, max: 900, mean: 500, std_dev: 0}')).toEqual({ input_len: 500 });
    expect(lengths('{min: 100, max: 900, mean: 500, std_dev: 80}')).toEqual({ input_len: 500, input_len_distribution: 'normal', input_len_std_dev: 80, input_len_min: 100, input_len_max: 900 });
    expect(lengths('{type: lognormal, min: 10, max: 4000, mean: 700, std_dev: 0, variance: 40000}')).toEqual({ input_len: 700, input_len_distribution: 'lognormal', input_len_std_dev: 200, input_len_min: 10, input_len_max: 4000 });
    // uniform draws between min and max whatever the mean: no center
    expect(lengths('{type: uniform, min: 64, max: 512, mean: 9999}')).toEqual({ input_len_distribution: 'uniform', input_len_min: 64, input_len_max: 512 });
    // inference-perf's defaults fill what is left out (min 10, max 1024, std_dev 200, normal)
    expect(lengths('{mean: 300}')).toEqual({ input_len: 300, input_len_distribution: 'normal', input_len_std_dev: 200, input_len_min: 10, input_len_max: 1024 });
    expect(fieldsOf(config('data:\n  type: random\n  output_distribution: {type: fixed, mean: 128}')).output_len).toBe(128);
  });

  it('reads no length of a dataset that brings its own (shareGPT) or of a replayed trace', () => {
    const f = fieldsOf(config('data:\n  type: shareGPT\n  input_distribution: {type: fixed, mean: 100}'));
    expect(f).not.toHaveProperty('input_len');
    const trace = fieldsOf(config('data:\n  type: random\n  trace:\n    file: azure.csv\n  input_distribution: {type: fixed, mean: 100}'));
    expect(trace).not.toHaveProperty('input_len');
  });

  it('reads a shared-prefix workload under the field names and under the aliases a resolved copy writes', () => {
    const own = fieldsOf(config('data:\n  type: shared_prefix\n  shared_prefix:\n    num_groups: 4\n    num_prompts_per_group: 16\n    system_prompt_len: 1024\n    question_len: 64\n    output_len: 32'));
    const resolved = fieldsOf(config('data:\n  type: shared_prefix\n  shared_prefix:\n    num_unique_system_prompts: 4\n    num_users_per_system_prompt: 16\n    system_prompt_len: 1024\n    question_len: 64\n    output_len: 32\n    seed: null'));
    const expected = { prefix_num_groups: 4, prefix_users_per_group: 16, prefix_len: 1024, input_len: 64, output_len: 32, dataset: 'shared_prefix' };
    expect(own).toMatchObject(expected);
    expect(resolved).toMatchObject(expected);
  });

  it('reads the first configs, which named the API alone', () => {
    expect(fieldsOf('load:\n  type: constant\n  stages:\n  - rate: 1\n    duration: 30\napi: chat\ndata:\n  type: shareGPT\n')).toEqual({ endpoint_type: 'chat', dataset: 'sharegpt', strategy: 'constant', client: 'inference-perf' });
  });

  it('gives no record for YAML whose load is no mapping, and says where a cut file stops', () => {
    expect(configOf('load: 3\nserver:\n  type: vllm\n').record).toBeUndefined();
    const cut = configOf('server:\n  type: sglang\n  model_name: acme/chat-7b\nload:\n  stages: [{rate: 1, duration: 60}, {rate: 2, dur');
    expect(cut.record?.fields).toMatchObject({ engine: 'sglang', model: 'acme/chat-7b' });
    expect(cut.diagnostics).toEqual([expect.stringMatching(/^parse\/syntax expected YAML, found "stages: \[/)]);
  });
});
