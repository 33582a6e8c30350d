import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { grammar } from '../../grammars/sglang-bench-serving/index.js';
import { grammar as vllm } from '../../grammars/vllm-bench-serve/index.js';

const pad = (label: string, value: string): string => `${label.padEnd(40)} ${value.padEnd(10)}`;

function block(lines: string[]): string[] {
  return ['', '============ Serving Benchmark Result ============', ...lines, '='.repeat(50)];
}

function parse(lines: string[]) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath('x.txt'), lines }, sink) as RunRecord[];
  return { records, diagnostics: sink.list() };
}

describe('sglang-bench-serving value conversions', () => {
  it('reads the v0.4 typo label and `not set` as an explicit null', () => {
    const typo = parse(block([pad('Backend:', 'sglang'), pad('Max reqeuest concurrency:', '128'), pad('Successful requests:', '10')]));
    expect(typo.records[0]?.fields.max_concurrency).toBe(128);
    const unset = parse(block([pad('Backend:', 'sglang'), pad('Max request concurrency:', 'not set'), pad('Successful requests:', '10')]));
    expect(unset.records[0]?.fields).toHaveProperty('max_concurrency', null);
  });

  it('drops fork sentinels (-1, -1.00) but keeps -0.00 and reports one info', () => {
    const r = parse(block([pad('Backend:', 'sglang'), pad('Peak concurrent requests:', '-1'), pad('Concurrency:', '-1.00'), pad('Median TPOT (ms):', '-0.00')]));
    expect(r.records[0]?.fields).not.toHaveProperty('peak_concurrent_requests');
    expect(r.records[0]?.fields).not.toHaveProperty('concurrency');
    expect(r.records[0]?.fields.median_tpot_ms).toBe(0);
    expect(r.diagnostics.map((d) => `${d.code}:${d.line}`)).toEqual(['block/sentinel-value:4']);
  });

  it('maps 2024 and 2026 spellings to the same columns', () => {
    const r = parse(block([
      pad('Backend:', 'vllm-chat'),
      pad('Traffic request rate:', 'trace'),
      pad('Total throughput (tok/s):', '12.50'),
      pad('Accept length:', '3.21'),
      pad('Mean E2E Latency (ms):', '710627.73'),
      pad('P90 E2E Latency (ms):', '1263758.99'),
      pad('Max ITL (ms):', '9.00'),
    ]));
    expect(r.records[0]?.fields).toMatchObject({
      backend: 'vllm-chat',
      engine: 'vllm',
      client: 'sglang-bench-serving',
      request_rate_mode: 'trace',
      total_token_throughput: 12.5,
      spec_acceptance_length: 3.21,
      mean_e2el_ms: 710627.73,
      p90_e2el_ms: 1263758.99,
      max_itl_ms: 9,
    });
    expect(r.records[0]?.fields).not.toHaveProperty('request_rate');
    expect(r.diagnostics).toEqual([]);
  });

  it('leaves SGLang blocks to this grammar and vLLM blocks to vLLM', () => {
    const lines = [...block([pad('Backend:', 'sglang'), pad('Successful requests:', '7')]), ...block([pad('Successful requests:', '9')])];
    const sink = new DiagnosticCollector();
    const mine = grammar.parse({ path: asRelPath('x.md'), lines }, sink) as RunRecord[];
    const theirs = vllm.parse({ path: asRelPath('x.md'), lines }, sink) as RunRecord[];
    expect(mine.map((r) => r.fields.completed)).toEqual([7]);
    expect(theirs.map((r) => r.fields.completed)).toEqual([9]);
  });

  it('reads the --cache-report section: totals, a fraction hit rate, tier counts and their shares', () => {
    const percent = (label: string, value: string): string => `${label.padEnd(40)} ${value}`;
    const r = parse(block([
      pad('Backend:', 'sglang-oai-chat'),
      pad('Successful requests:', '64'),
      '----------------Cache Hit Details-----------------',
      pad('Total prompt tokens:', '131072'),
      pad('Total cached tokens:', '65536'),
      pad('  Device:', '40960'),
      pad('  Host:', '16384'),
      pad('  Storage (mooncake_store):', '8192'),
      percent('Cache hit rate:', '50.0%'),
      percent('  Device:', '62.5%'),
      percent('  Host:', '25.0%'),
      percent('  Storage (mooncake_store):', '12.5%'),
    ]));
    expect(r.records[0]?.fields).toMatchObject({
      total_prompt_tokens: 131072,
      total_cached_tokens: 65536,
      prefix_cache_hit_rate: 0.5,
      cached_tokens_device: 40960,
      cached_tokens_host: 16384,
      cached_tokens_storage: 8192,
      cached_tokens_device_share: 0.625,
      cached_tokens_host_share: 0.25,
      cached_tokens_storage_share: 0.125,
      cache_storage_backend: 'mooncake_store',
    });
    expect(r.records[0]?.fields).not.toHaveProperty('cache_hit_rate');
    expect(r.diagnostics).toEqual([]);
  });

  it('reads a cache report without a tier breakdown, or without its section rule', () => {
    const bare = parse(block([pad('Backend:', 'sglang'), '----------------Cache Hit Details-----------------', pad('Total prompt tokens:', '100'), pad('Total cached tokens:', '0'), 'Cache hit rate:                          0.0%']));
    expect(bare.records[0]?.fields).toMatchObject({ total_prompt_tokens: 100, total_cached_tokens: 0, prefix_cache_hit_rate: 0 });
    expect(Object.keys(bare.records[0]?.fields ?? {}).filter((k) => k.startsWith('cached_tokens'))).toEqual([]);
    const lost = parse(block([pad('Backend:', 'sglang'), pad('Total cached tokens:', '30'), pad('  Storage:', '30'), 'Cache hit rate:                          7.5%', '  Storage:                               100.0%']));
    expect(lost.records[0]?.fields).toMatchObject({ total_cached_tokens: 30, cached_tokens_storage: 30, prefix_cache_hit_rate: 0.075, cached_tokens_storage_share: 1 });
    expect(lost.records[0]?.fields).not.toHaveProperty('cache_storage_backend');
    expect(lost.diagnostics).toEqual([]);
  });

  it('leaves a tier-like label before any cache report to the shared reader', () => {
    const r = parse(block([pad('Backend:', 'sglang'), pad('Host:', '10.0.0.1'), pad('Successful requests:', '3')]));
    expect(r.records[0]?.fields).not.toHaveProperty('cached_tokens_host');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['block/unknown-label']);
  });

  it('names an engine only for server-engine backends', () => {
    expect(['sglang-oai-chat', 'vllm', 'trt', 'lmdeploy', 'openai', 'tgi'].map(engineFromBackend)).toEqual(['sglang', 'vllm', 'trtllm', 'lmdeploy', undefined, undefined]);
  });

  it('reads the click refactor dump, `Benchmark arguments:` then `namespace(...)`, like an argparse Namespace', () => {
    const dump = "namespace(backend='sglang', dataset_name='random', model='m/x', num_prompts=40, random_input_len=300, random_output_len=60, request_rate=inf)";
    const r = parse(['Benchmark arguments:', dump, ...block([pad('Backend:', 'sglang'), pad('Successful requests:', '40')])]);
    expect(r.records[0]?.fields).toMatchObject({ model: 'm/x', dataset: 'random', num_prompts: 40, input_len: 300, output_len: 60 });
    expect(r.records[0]?.lines.model).toBe(2);
  });

  it('reads the length knobs only of the datasets that use them', () => {
    const run = (args: string) => parse([`benchmark_args=Namespace(backend='sglang', ${args})`, ...block([pad('Backend:', 'sglang'), pad('Successful requests:', '4')])]).records[0]?.fields;
    // custom, openai and longbench_v2 take --sharegpt-output-len as their fixed output length
    expect(run("dataset_name='custom', sharegpt_output_len=200, random_input_len=1024, random_output_len=1024")).toMatchObject({ output_len: 200 });
    expect(run("dataset_name='longbench_v2', sharegpt_output_len=32, random_output_len=1024")).toMatchObject({ output_len: 32 });
    // mmmu takes --random-output-len (never --random-input-len)
    const mmmu = run("dataset_name='mmmu', sharegpt_output_len=None, random_input_len=1024, random_output_len=64");
    expect(mmmu).toMatchObject({ output_len: 64 });
    expect(mmmu).not.toHaveProperty('input_len');
    // generated-shared-prefix uses none of them
    const gsp = run("dataset_name='generated-shared-prefix', sharegpt_output_len=100, random_input_len=1024, random_output_len=1024");
    expect(gsp).not.toHaveProperty('output_len');
    expect(gsp).not.toHaveProperty('input_len');
  });

  it('reads no output length of an embedding run (2026 `sglang-embedding`: it generates nothing)', () => {
    const lines = [
      "benchmark_args=Namespace(backend='sglang-embedding', dataset_name='random', random_input_len=256, random_output_len=1024, sharegpt_output_len=None)",
      '#Input tokens: 2560',
      '#Output tokens: 10240',
      ...block([pad('Backend:', 'sglang-embedding'), pad('Successful requests:', '10'), pad('Total input tokens:', '2560')]),
    ];
    const fields = parse(lines).records[0]?.fields;
    expect(fields).toMatchObject({ input_len: 256, total_input_tokens: 2560 });
    expect(fields).not.toHaveProperty('output_len');
    expect(fields).not.toHaveProperty('total_output_tokens');
  });

  it('takes --sharegpt-output-len for the 2026 agentic-trace and autobench datasets', () => {
    const run = (dataset: string) => parse([`benchmark_args=Namespace(backend='sglang', dataset_name='${dataset}', sharegpt_output_len=300, random_output_len=1024)`, ...block([pad('Backend:', 'sglang'), pad('Successful requests:', '4')])]).records[0]?.fields;
    expect(run('agentic-trace')).toMatchObject({ output_len: 300 });
    expect(run('autobench')).toMatchObject({ output_len: 300 });
  });

  it('reads the 2026 dataset-named knobs for their own dataset only: speed-bench, generated-shared-prefix', () => {
    const knobs =
      "speed_bench_category=None, speed_bench_output_len=512, image_count=1, image_resolution='1080p', mooncake_num_rounds=1, agentic_max_turns=None, " +
      'gsp_num_groups=16, gsp_prompts_per_group=4, gsp_system_prompt_len=1500, gsp_question_len=60, gsp_output_len=90, gsp_num_turns=1, random_input_len=1024, random_output_len=1024, num_prompts=500';
    const run = (dataset: string) => parse([`benchmark_args=Namespace(backend='sglang', dataset_name='${dataset}', ${knobs})`, ...block([pad('Backend:', 'sglang'), pad('Successful requests:', '4')])]).records[0]?.fields ?? {};
    const owned = (f: Record<string, unknown>) => Object.keys(f).filter((k) => /^(?:gsp|speed_bench|image|mooncake|agentic)_/.test(k));
    // speed-bench sends --speed-bench-output-len tokens a request
    const speed = run('speed-bench');
    expect(speed).toMatchObject({ output_len: 512, num_prompts: 500 });
    expect(speed).not.toHaveProperty('input_len');
    expect(owned(speed)).toEqual([]);
    // generated-shared-prefix: system prompt = prefix_len, question = input_len; --num-prompts unused
    const gsp = run('generated-shared-prefix');
    expect(gsp).toMatchObject({ output_len: 90, input_len: 60, prefix_len: 1500, prefix_num_groups: 16, prefix_users_per_group: 4, gsp_num_turns: 1 });
    expect(gsp).not.toHaveProperty('num_prompts');
    // a random run: its own lengths, none of the other datasets' defaults
    const random = run('random');
    expect(random).toMatchObject({ input_len: 1024, output_len: 1024, num_prompts: 500 });
    expect(owned(random)).toEqual([]);
    expect(random).not.toHaveProperty('prefix_len');
    expect(run('image')).toMatchObject({ image_count: 1, image_resolution: '1080p' });
  });

  it('detects only files with SGLang-only lines under the header', () => {
    const head = (body: string[]) => grammar.detect({ path: asRelPath('x'), head: block(body).join('\n') }).score;
    expect(head([pad('Backend:', 'sglang')])).toBeGreaterThan(0);
    expect(head([pad('Successful requests:', '3')])).toBe(0);
  });
});
