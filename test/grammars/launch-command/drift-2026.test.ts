import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/launch-command/index.js';
import type { BenchRecord, ConfigRecord } from '../../../src/core/records.js';
import { runGrammar } from '../../helpers/grammar-run.js';

const fields = (text: string): Array<Record<string, unknown>> =>
  runGrammar(grammar, text).records.flatMap((r: BenchRecord) => (r.kind === 'config' ? [(r as ConfigRecord).fields] : []));

describe('launch-command: 2025–2026 flag spellings', () => {
  it("reads vLLM's short aliases as the long flags they stand for (-ep is a switch, not an EP size)", () => {
    const [r] = fields('vllm serve org/m -tp 4 -ep -dcp 2 -pcp 2 -dpl 2 -q fp8 -n 2 -r 0');
    expect(r).toMatchObject({ tp: 4, enable_expert_parallel: true, decode_context_parallel_size: 2, prefill_context_parallel_size: 2, data_parallel_size_local: 2, quantization: 'fp8', nnodes: 2, node_rank: 0 });
    expect(r).not.toHaveProperty('ep');
    expect(r).not.toHaveProperty('dcp');
    expect(r).not.toHaveProperty('q');
    // the same aliases in vLLM's in-process benchmarks
    expect(fields('vllm bench latency --model org/m -ep -q awq')[0]).toMatchObject({ engine: 'vllm', enable_expert_parallel: true, quantization: 'awq' });
    // SGLang's --ep is the expert-parallel size
    expect(fields('python -m sglang.launch_server --model-path org/m --tp 8 --ep 8')[0]).toMatchObject({ tp: 8, ep: 8 });
  });

  it('splits -flag=value like argparse, and reads vLLM -O levels and -cc / -O dotted keys', () => {
    expect(fields('vllm serve org/m -tp=8 -dp=2 -q=fp8')[0]).toMatchObject({ tp: 8, dp: 2, quantization: 'fp8' });
    expect(fields('vllm serve org/m -O3')[0]).toMatchObject({ optimization_level: 3 });
    expect(fields('vllm serve org/m -O=2')[0]).toMatchObject({ optimization_level: 2 });
    expect(fields('vllm serve org/m -O 1')[0]).toMatchObject({ optimization_level: 1 });
    const [cc] = fields('vllm serve org/m -cc.mode=3 -O.cudagraph_mode FULL');
    expect(cc).toMatchObject({ compilation_config_mode: 3, compilation_config_cudagraph_mode: 'FULL' });
    expect(fields(`vllm serve org/m -O '{"level": 3}'`)[0]).toMatchObject({ compilation_config: '{"level": 3}' });
  });

  it('reads `sglang serve` (the sglang CLI) as an SGLang server launch', () => {
    const [r] = fields('sglang serve --model-path org/m --tp 2 --speculative-algorithm EAGLE3 --speculative-draft-model org/d --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4');
    expect(r).toMatchObject({ engine: 'sglang', model: 'org/m', tp: 2, spec_method: 'eagle3', draft_model: 'org/d', num_spec_tokens: 4 });
    expect(grammar.detect({ path: 't.sh' as never, head: 'sglang serve --model-path org/m\n' }).score).toBeGreaterThan(0);
    expect(fields('uvx --from sglang sglang serve --model-path org/m')[0]).toMatchObject({ engine: 'sglang', model: 'org/m', spec_method: 'none' });
  });

  it('takes no model from trtllm-serve subcommands that serve none, and reads trtllm-bench serve as a launch', () => {
    expect(fields('trtllm-serve disaggregated -c disagg.yaml')).toEqual([]);
    expect(fields('trtllm-serve mm_embedding_serve org/encoder')).toEqual([]);
    const [r] = runGrammar(grammar, 'trtllm-bench --model org/m serve --tp 4 --ep 4 --max_batch_size 64 --target_input_len 1024 --target_output_len 128 --max_isl 1024 --max_osl 128').records;
    expect(r).toMatchObject({ origin: 'launch-command', fields: { engine: 'trtllm', model: 'org/m', tp: 4, ep: 4, max_num_seqs: 64, spec_method: 'none' } });
  });

  it("reads a number after a switch-like name as its value (trtllm-bench's --warmup 2), and wrapper options before the tool", () => {
    const [r] = fields('trtllm-bench --model org/m throughput --warmup 2 --num_requests 10 --concurrency 8 --dataset d.jsonl');
    expect(r).toMatchObject({ warmup: 2, num_prompts: 10, max_concurrency: 8 });
    expect(fields('uv run --with vllm vllm serve org/m -tp 2')[0]).toMatchObject({ engine: 'vllm', model: 'org/m', tp: 2 });
    expect(fields('We run --with vllm serve in prose.')).toEqual([]);
  });
});
