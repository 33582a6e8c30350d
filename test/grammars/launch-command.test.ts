import { describe, expect, it } from 'vitest';
import { grammar } from '../../grammars/launch-command/index.js';
import { expandWord } from '../../grammars/launch-command/expand.js';
import { shellStatements } from '../../grammars/launch-command/shell.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { ConfigRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';

const path = asRelPath('x.txt');
const parse = (text: string): ConfigRecord[] =>
  grammar.parse({ path, lines: text.split('\n') }, new DiagnosticCollector()).filter((r): r is ConfigRecord => r.kind === 'config');

describe('shell words', () => {
  it('keeps quoted JSON as one word and splits at operators, redirects and pipes', () => {
    const statements = shellStatements(`A=1 vllm serve m --x='{"a": 1}' 2>&1 | tee log.txt && echo "ok; fine" # done`, 1);
    expect(statements.map((s) => s.map((w) => w.raw))).toEqual([
      ['A=1', 'vllm', 'serve', 'm', `--x='{"a": 1}'`],
      ['tee', 'log.txt'],
      ['echo', '"ok; fine"'],
    ]);
  });

  it('expands literal variables but nothing inside single quotes', () => {
    const vars = new Map([['M', 'org/model']]);
    expect(expandWord(`"$M"-'$M'-\${M}-\${K:-3}-$X`, vars)).toEqual({ text: 'org/model-$M-org/model-3-$X', unresolved: ['X'], dynamic: false });
  });
});

describe('launch-command grammar', () => {
  it("reads offline benchmarks as benchmark commands that carry their in-process engine's arguments", () => {
    const text = [
      `vllm bench latency --model m --batch-size 8 --speculative-config '{"method": "eagle3", "model": "d", "num_speculative_tokens": 3}' -tp 2`,
      'python3 benchmarks/benchmark_throughput.py --model m --num-prompts 100',
      '$ vllm bench latency --model m --batch-size 1 --tokenizer $TOK',
      '$ python -m sglang.bench_one_batch --model-path m --batch-size 4',
      'python3 -m sglang.bench_one_batch_server --model-path m --tp 2 --batch-size 16',
      'python -m sglang.benchmark.one_batch_server --model-path m --batch-size 8',
    ].join('\n');
    const fields = parse(text).map((r) => [r.origin, r.fields.client, r.fields.engine, r.fields.spec_method ?? null, r.fields.num_spec_tokens ?? null, r.fields.tp ?? null, r.fields.batch_size ?? null]);
    expect(fields).toEqual([
      ['bench-command', 'vllm-bench-latency', 'vllm', 'eagle3', 3, 2, 8],
      // no speculative flag: the engine ran without
      ['bench-command', 'vllm-bench-throughput', 'vllm', 'none', null, null, null],
      // unless part of its arguments is out of sight
      ['bench-command', 'vllm-bench-latency', 'vllm', null, null, null, 1],
      // SGLang's in-process benchmarks alike; a `$` prompt is no variable
      ['bench-command', 'sglang-bench-one-batch', 'sglang', 'none', null, null, 4],
      // its server-side sibling launches its own server with the arguments it is given
      ['bench-command', 'sglang-bench-one-batch-server', 'sglang', 'none', null, 2, 16],
      ['bench-command', 'sglang-bench-one-batch-server', 'sglang', 'none', null, null, 8],
    ]);
  });

  it("reads trtllm-bench's -m and --backend as its report's model and backend, and no value a variable left empty", () => {
    const text = ['model_path=<your model path>', 'trtllm-bench -m org/Big-V3 --model_path ${model_path} throughput --tp 4 --dataset ${data_path} --backend pytorch --concurrency 1'].join('\n');
    const [bench] = parse(text);
    expect(bench?.fields).toMatchObject({ client: 'trtllm-bench', model: 'org/Big-V3', tp: 4, backend: 'pytorch', max_concurrency: 1 });
    expect(bench?.fields).not.toHaveProperty('trtllm_backend');
    expect(bench?.fields).not.toHaveProperty('m');
    // a server's --backend stays apart from a client's API backend
    expect(parse('trtllm-serve org/Big-V3 --backend pytorch --tp_size 8')[0]?.fields).toMatchObject({ engine: 'trtllm', trtllm_backend: 'pytorch', tp: 8 });
  });

  it('gives a command in a Markdown write-up the runs of its section, its subsections and the sections that go on with it', () => {
    const lines = [
      '# Guide', '```', 'x', '```',
      '## Step 3', 'vllm serve m --tensor-parallel-size 8', // line 6
      '#### FP8', 'text',
      '## Step 4', '```', 'vllm bench serve --model m --max-concurrency 4', '```', // line 11
      '## Expected results', 'block here',
      '### Numbers', 'more',
      '## Next experiment', 'text', // line 17
    ];
    const bounds = (text: string[]) => parse(text.join('\n')).map((r) => [r.at.line, r.fields.section_start, r.fields.section_end]);
    // each: its section and subsections, then the next step and the results, up to another topic
    expect(bounds(lines)).toEqual([[6, 5, 16], [11, 9, 16]]);
    // a command under a subsection goes on into the guide's next step at that step's level
    expect(bounds(['# Guide', '```', 'x', '```', '#### Step 3', '##### FP8', 'vllm serve m', '#### Step 4', 'run', '#### Tuning', 'text'])).toEqual([[7, 6, 9]]);
    // (not into a sibling variant)
    expect(bounds(['# Guide', '```', 'x', '```', '#### Step 3', '##### FP8', 'vllm serve m', '##### BF16', 'vllm serve m2'])).toEqual([[7, 6, 7], [9, 8, 9]]);
    // a heading of another topic ends it
    expect(bounds(['# Guide', '```', 'x', '```', '## Installation', 'vllm serve m', '## Troubleshooting', 'text'])).toEqual([[6, 5, 6]]);
    // a server set up under its own heading serves the sections of its level after it, up to a heading above it
    const guide = ['# Guide', '```', 'x', '```', '## Serve', 'vllm serve m', '## 1. Completions 256/128', 'block', '## 2. Chat 512/256', 'block', '# Appendix', 'text'];
    expect(bounds(guide)).toEqual([[6, 5, 10]]);
    // (a benchmark command under such a heading is not a server's)
    expect(bounds(['# Guide', '```', 'x', '```', '## Setup', 'vllm bench serve --model m', '## 1. Chat', 'block'])).toEqual([[6, 5, 6]]);
  });

  it('reads the speculative decoding of a configuration file the script wrote from a here-document above the command', () => {
    const script = (spec: string[], backend = 'pytorch') =>
      [
        'cat <<EOF > ./config.yml',
        'kv_cache_config:',
        '  free_gpu_memory_fraction: 0.8',
        ...spec,
        'EOF',
        `trtllm-bench -m org/Big-V3 throughput --tp 4 --backend ${backend} --extra_llm_api_options ./config.yml --concurrency 1`,
      ].join('\n');
    expect(parse(script(['speculative_config:', '  decoding_type: MTP', '  num_nextn_predict_layers: 3']))[0]?.fields).toMatchObject({ spec_method: 'mtp', num_spec_tokens: 3, tp: 4 });
    // indented with tabs, as a doc's editor left it
    expect(parse(script(['speculative_config:', '\tdecoding_type: MTP', '\tnum_nextn_predict_layers: 2']))[0]?.fields).toMatchObject({ spec_method: 'mtp', num_spec_tokens: 2 });
    // the PyTorch backend's Eagle is EAGLE-3
    expect(parse(script(['speculative_config:', '  decoding_type: Eagle', '  max_draft_len: 4', '  speculative_model_dir: org/Big-V3-EAGLE']))[0]?.fields).toMatchObject({
      spec_method: 'eagle3',
      num_spec_tokens: 4,
      draft_model: 'org/Big-V3-EAGLE',
    });
    // `cat > file << 'EOF'` too; a file the script did not write gives nothing
    const other = ["cat > /tmp/extra.yaml << 'EOF'", 'speculative_config:', '  decoding_type: MTP', '  num_nextn_predict_layers: 1', 'EOF', 'trtllm-serve org/Big-V3 --extra_llm_api_options /tmp/extra.yaml'].join('\n');
    expect(parse(other)[0]?.fields).toMatchObject({ engine: 'trtllm', spec_method: 'mtp', num_spec_tokens: 1 });
    expect(parse('trtllm-serve org/Big-V3 --extra_llm_api_options /tmp/elsewhere.yaml')[0]?.fields).not.toHaveProperty('spec_method');
  });

  it('reads the speculative decoding of the configuration file a guide shows in a YAML block below the command', () => {
    const guide = [
      '```bash',
      'trtllm-bench --model org/Big-R1 throughput --backend pytorch --tp 8 --extra_llm_api_options ./extra-llm-api-config.yml',
      '```',
      '- `--extra_llm_api_options`: The content of the file is as follows:',
      '',
      '    ``` yaml',
      '    speculative_config:',
      '        decoding_type: MTP',
      '        num_nextn_predict_layers: 3',
      '    ```',
      '```bash',
      'trtllm-bench --model org/Big-R1 throughput --backend pytorch --tp 8',
      '```',
    ].join('\n');
    const [first, second] = parse(guide);
    expect(first?.fields).toMatchObject({ spec_method: 'mtp', num_spec_tokens: 3, tp: 8 });
    // a command that reads no file takes nothing from it
    expect(second?.fields).not.toHaveProperty('spec_method');
    // nor one whose next command comes before the block
    const later = parse(['trtllm-serve org/M --extra_llm_api_options a.yml', 'trtllm-serve org/N', '```yaml', 'speculative_config:', '  decoding_type: Eagle', '```'].join('\n'));
    expect(later.map((r) => r.fields.spec_method ?? null)).toEqual([null, 'none']);
  });

  it("splits an unquoted variable's value into words, as the shell does", () => {
    const text = ['export bench_method="--num-prompts 20 --max-concurrency 1"', 'vllm bench serve --model m ${bench_method}'].join('\n');
    const [bench] = parse(text);
    expect(bench?.fields).toMatchObject({ client: 'vllm-bench-serve', model: 'm', num_prompts: 20, max_concurrency: 1 });
    expect(Object.keys(bench?.fields ?? {}).filter((k) => k.includes(' '))).toEqual([]);
  });

  it("reads vLLM's first API server (vllm.entrypoints.api_server) as a vLLM launch", () => {
    expect(parse('python -m vllm.entrypoints.api_server --model /data/llama-7b --swap-space 16')[0]?.fields).toMatchObject({ engine: 'vllm', model: '/data/llama-7b' });
  });

  it("records the port a launch listens on (its engine's default when not named) and the one a benchmark aims at", () => {
    const ports = (command: string) => {
      const f = parse(command)[0]?.fields ?? {};
      return [f.server_port ?? null, f.target_port ?? null];
    };
    expect(ports('vllm serve m')).toEqual([8000, null]);
    expect(ports('python -m sglang.launch_server --model-path m')).toEqual([30000, null]);
    expect(ports('vllm serve m --port 7013')).toEqual([7013, null]);
    expect(ports('vllm bench serve --model m --host 10.0.0.2 --port 7013')).toEqual([null, 7013]);
    expect(ports('vllm bench serve --model m --base-url http://10.0.0.2:9000/v1')).toEqual([null, 9000]);
    expect(ports('vllm bench serve --model m')).toEqual([null, null]);
  });

  it('reads a command run in a container: docker/podman exec, docker compose exec, kubectl exec --', () => {
    const clients = (text: string) => parse(text).map((r) => [r.fields.client ?? r.fields.engine, r.fields.max_concurrency ?? null]);
    expect(clients('docker exec -e PYTHONUNBUFFERED=1 -it vllm-bench vllm bench serve --model m --max-concurrency 25')).toEqual([['vllm-bench-serve', 25]]);
    expect(clients('podman exec -w /work bench python3 -m sglang.bench_serving --backend sglang --max-concurrency 4')).toEqual([['sglang-bench-serving', 4]]);
    expect(clients('docker compose exec bench vllm bench serve --model m --max-concurrency 8')).toEqual([['vllm-bench-serve', 8]]);
    expect(clients('kubectl exec -it pod-0 -n llm -- vllm serve m --tensor-parallel-size 2')).toEqual([['vllm', null]]);
    // a word between the container and the command is prose, as anywhere
    expect(parse('docker exec box then vllm serve m')).toEqual([]);
  });

  it("reads a server run by `docker run`: vLLM's image, whose entrypoint is the server, or a command after any image", () => {
    const servers = (text: string) => parse(text).map((r) => [r.fields.engine, r.fields.model, r.fields.tp, r.fields.spec_method, r.fields.num_spec_tokens ?? null]);
    const vllmImage = [
      'docker run -d --name srv --gpus all -p 8000:8000 -e HF_HOME=/cache --ipc=host -v /cache:/root/.cache/huggingface \\',
      '  vllm/vllm-openai@sha256:0a51ea5b org/Model-35B --tensor-parallel-size 2 \\',
      `  --speculative-config '{"method":"mtp","num_speculative_tokens":3}'`,
    ].join('\n');
    expect(servers(vllmImage)).toEqual([['vllm', 'org/Model-35B', 2, 'mtp', 3]]);
    expect(servers('docker run --runtime nvidia --gpus all vllm/vllm-openai:v0.6.3 --model org/M --tensor-parallel-size 4')).toEqual([['vllm', 'org/M', 4, 'none', null]]);
    expect(servers('docker run --gpus all --shm-size 32g lmsysorg/sglang:latest python3 -m sglang.launch_server --model-path org/S --tp 2')).toEqual([['sglang', 'org/S', 2, 'none', null]]);
    // the image's entrypoint replaced by a command of its own: that command, once
    expect(servers('docker run --rm vllm/vllm-openai:v0.9.0 vllm serve org/O --tp 4')).toEqual([['vllm', 'org/O', 4, 'none', null]]);
    // the image named in prose, a pull, a tag: no server
    expect(parse('docker pull vllm/vllm-openai:latest\nThe image vllm/vllm-openai:v0.11.0 is pinned.')).toEqual([]);
  });

  it("reads an SGLang benchmark's random lengths as its lengths only when it names the random dataset (ShareGPT is its default)", () => {
    const [unnamed] = parse('python3 -m sglang.bench_serving --backend sglang --random-input-len 1024 --random-output-len 1024 --num-prompts 10');
    expect(unnamed?.fields).toMatchObject({ random_input_len: 1024, random_output_len: 1024 });
    expect(unnamed?.fields.input_len).toBeUndefined();
    const [random] = parse('python3 -m sglang.bench_serving --backend sglang --dataset-name random --random-input-len 1024 --random-output-len 1024');
    expect(random?.fields).toMatchObject({ dataset: 'random', input_len: 1024, output_len: 1024 });
  });

  it('keeps no credential: not as a column, not in the command text', () => {
    const [server] = parse('HF_TOKEN=hf_abc123 CUDA_VISIBLE_DEVICES=0,1 vllm serve org/M --api-key sk-one --hf-token=hf_two --tp 2');
    expect(server?.fields).toMatchObject({ env_cuda_visible_devices: '0,1', tp: 2 });
    expect(Object.keys(server?.fields ?? {}).filter((k) => /token|key/.test(k))).toEqual([]);
    expect(server?.fields.command).toBe('HF_TOKEN=*** CUDA_VISIBLE_DEVICES=0,1 vllm serve org/M --api-key *** --hf-token=*** --tp 2');
  });

  it('reads a list of numbers after a flag as its values, whatever the flag (nargs=+), not as prose', () => {
    const [server] = parse('sglang serve --model-path m --tp-size 16 --cuda-graph-bs-decode 1 2 4 8 12 13 --speculative-algorithm EAGLE3 --speculative-num-draft-tokens 5');
    expect(server?.fields).toMatchObject({ engine: 'sglang', tp: 16, cuda_graph_bs_decode: '1 2 4 8 12 13', spec_method: 'eagle3', num_spec_tokens: 5 });
    // a benchmark's load point given as a list is a sweep, no one run's value
    expect(parse('python -m sglang.bench_one_batch --model-path m --batch 4 8 --input-len 1024 --output-len 1 1024')[0]?.fields).toMatchObject({
      batch_size_values: [4, 8],
      input_len: 1024,
      output_len_values: [1, 1024],
    });
    // one number and a word are a value and a stray
    expect(parse('vllm serve --max-num-seqs 8 16 and then some')).toEqual([]);
  });

  it("reads a benchmark command's random lengths as the run's only when its dataset is random", () => {
    const lengths = (command: string) => {
      const f = parse(command)[0]?.fields ?? {};
      return [f.dataset ?? null, f.input_len ?? null, f.random_input_len ?? null];
    };
    expect(lengths('vllm bench serve --model m --dataset-name sharegpt --random-input-len 1024')).toEqual(['sharegpt', null, 1024]);
    expect(lengths('vllm bench serve --model m --dataset-name random --random-input-len 1024')).toEqual(['random', 1024, null]);
    expect(lengths('vllm bench serve --model m --random-input-len 1024')).toEqual([null, 1024, null]);
  });

  it("gives a vLLM throughput benchmark of another engine's backend (--backend hf, mii) no engine: it timed that one", () => {
    const text = ['vllm bench throughput --model m --backend hf --hf-max-batch-size 8', 'python benchmarks/benchmark_throughput.py --backend=mii --model m', 'vllm bench throughput --backend vllm-chat --model m'].join('\n');
    expect(parse(text).map((r) => [r.fields.client, r.fields.engine ?? null, r.fields.backend ?? null])).toEqual([
      ['vllm-bench-throughput', null, 'hf'],
      ['vllm-bench-throughput', null, 'mii'],
      ['vllm-bench-throughput', 'vllm', 'vllm-chat'],
    ]);
  });

  it('takes a server launched with no speculative flag for a baseline, unless some of its arguments are out of sight', () => {
    const method = (text: string) => parse(text).map((r) => r.fields.spec_method ?? null);
    expect(method('vllm serve acme/m --tensor-parallel-size 2')).toEqual(['none']);
    expect(method('python -m sglang.launch_server --model-path acme/m --tp 2')).toEqual(['none']);
    expect(method(`vllm serve acme/m --speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}'`)).toEqual(['eagle3']);
    expect(method('vllm serve acme/m --speculative-model acme/d --num-speculative-tokens 4')).toEqual(['draft_model']);
    // a variable the file does not set, a configuration file: the speculative flags may be there
    expect(method('vllm serve acme/m $EXTRA_ARGS')).toEqual([null]);
    expect(method('vllm serve acme/m --config serve.yaml')).toEqual([null]);
    expect(method('trtllm-serve acme/m --extra_llm_api_options spec.yaml')).toEqual([null]);
    // a benchmark command says nothing of the server's decoding
    expect(method('vllm bench serve --model acme/m --max-concurrency 4')).toEqual([null]);
  });

  it('reads no SGLang speculative knob of a launch that names no algorithm: SGLang reads none then', () => {
    const spec = (text: string) => parse(text).map((r) => [r.fields.spec_method ?? null, r.fields.num_spec_tokens ?? null, r.fields.spec_num_steps ?? null, r.fields.spec_eagle_topk ?? null]);
    expect(spec('python -m sglang.launch_server --model-path acme/m --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4')).toEqual([['none', null, null, null]]);
    expect(spec('python -m sglang.launch_server --model-path acme/m --speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4')).toEqual([['eagle3', 4, 3, 1]]);
    // argparse's unambiguous prefixes, as SGLang's 2024 docs launch EAGLE
    expect(spec('python3 -m sglang.launch_server --model m --speculative-algo EAGLE --speculative-draft d --speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 64')).toEqual([['eagle', 64, 5, 8]]);
    // an algorithm may be out of sight: the knobs are kept
    expect(spec('python -m sglang.launch_server --model-path acme/m $SPEC --speculative-num-draft-tokens 4')).toEqual([[null, 4, null, null]]);
    // vLLM's own rules are untouched
    expect(spec('vllm serve acme/m --speculative-model acme/d --num-speculative-tokens 4')).toEqual([['draft_model', 4, null, null]]);
  });

  it('reads a prompted command, short flags, an --x=y flag and a negated boolean', () => {
    const [r] = parse('user@box:~$ vllm serve org/m -tp 8 --max-num-seqs=16 --no-enable-prefix-caching --enforce-eager');
    expect(r?.origin).toBe('launch-command');
    expect(r?.fields).toMatchObject({ engine: 'vllm', model: 'org/m', tp: 8, max_num_seqs: 16, enable_prefix_caching: false, enforce_eager: true });
  });

  it('does not take prose that mentions a command for a command', () => {
    expect(parse('We run vllm serve with the defaults, then python -m sglang.launch_server too.')).toEqual([]);
    expect(grammar.detect({ path, head: 'We run vllm serve with the defaults.\n' }).score).toBe(0);
  });

  it('does not claim a server log whose argument dump names the same options', () => {
    const log = "INFO 05-01 10:00:00 [api_server.py:1] non-default args: {'model': 'org/m', 'tensor_parallel_size': 2}\n";
    expect(grammar.detect({ path, head: log }).score).toBe(0);
  });

  it('claims a log that echoes its benchmark command', () => {
    const head = '[12:00:01] Running: python benchmarks/benchmark_serving.py --model org/m --num-prompts 10\n';
    expect(grammar.detect({ path, head }).score).toBeGreaterThan(0);
    expect(parse(head)[0]?.fields).toMatchObject({ client: 'vllm-bench-serve', model: 'org/m', num_prompts: 10 });
  });
});

describe('multi-turn benchmark commands', () => {
  it("reads SGLang's bench_multiturn.py and vLLM's benchmark_serving_multi_turn.py, with the flags each names its own way", () => {
    const sglang = '$ python3 benchmark/hicache/bench_multiturn.py --model-path Qwen/Qwen3-8B --num-clients 32 --num-rounds 3 --request-length 1024 --output-length 128 --max-parallel 16 --request-rate 4\n';
    expect(grammar.detect({ path, head: sglang }).score).toBeGreaterThan(0);
    expect(parse(sglang)[0]?.fields).toMatchObject({ client: 'sglang-bench-multiturn', model: 'Qwen/Qwen3-8B', num_clients: 32, turns_per_conversation: 3, request_length: 1024, output_len: 128, max_concurrency: 16, request_rate: 4 });
    const vllm = 'python benchmark_serving_multi_turn.py --model /models/llama --served-model-name Llama --input-file generate_multi_turn.json --num-clients 2 --max-active-conversations 6\n';
    expect(parse(vllm)[0]?.fields).toMatchObject({ client: 'vllm-multi-turn-bench', model: '/models/llama', max_concurrency: 2, max_active_conversations: 6 });
    // another client's --num-clients is no concurrency
    expect(parse('$ python3 benchmark/hicache/bench_multiturn.py --num-clients 32\n')[0]?.fields).not.toHaveProperty('max_concurrency');
  });
});

describe('commands printed by tools', () => {
  it("reads the command SGLang's popen_launch_server prints (command=python3 -m sglang.launch_server …)", () => {
    const [server] = parse('Start i=1: batch_size=1, steps=3, topk=1, num_draft_tokens=4\ncommand=python3 -m sglang.launch_server --model-path org/M --speculative-algorithm EAGLE3 --speculative-num-steps 3 --tp-size 2');
    expect(server).toMatchObject({ origin: 'launch-command', at: { line: 2 }, fields: { engine: 'sglang', model: 'org/M', spec_method: 'eagle3', spec_num_steps: 3, tp: 2 } });
    // a shell assignment of another name stays one
    expect(parse('cmd=python3 -m sglang.launch_server --model-path org/M')).toEqual([]);
  });
});
