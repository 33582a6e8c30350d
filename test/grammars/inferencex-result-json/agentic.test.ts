import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/inferencex-result-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** A flat agentic aggregate (process_agentic_result.py): AIPerf replaying traces, per-GPU over every GPU. */
function agentic(extra: Record<string, unknown>): string {
  return JSON.stringify(
    {
      hw: 'b200', conc: 32, model: 'acme/coder-8b', framework: 'vllm', precision: 'fp8', spec_decoding: 'none', disagg: false,
      scenario_type: 'agentic-coding', num_requests_total: 300, num_requests_successful: 300,
      mean_ttft: 0.5, mean_tpot: 0.02, mean_input_tokens: 20000.5, mean_output_tokens_actual: 250.25,
      total_tput_tps: 30000, output_tput_tps: 400, input_tput_tps: 29600, duration_seconds: 120.5,
      ...extra,
    },
    null,
    2,
  );
}

describe('inferencex-result-json agentic aggregates', () => {
  it('divides a multi-node run by all its GPUs, and names AIPerf as the client', () => {
    const text = agentic({
      is_multinode: true, tp: 6, prefill_num_workers: 1, prefill_tp: 2, num_prefill_gpu: 2, decode_num_workers: 1, decode_tp: 4, num_decode_gpu: 4,
      tput_per_gpu: 5000, output_tput_per_gpu: 400 / 6, input_tput_per_gpu: 29600 / 6,
    });
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(diagnostics).toEqual([]);
    const [f] = runFields(records);
    expect(f).toMatchObject({ client: 'aiperf', total_token_throughput: 30000, num_gpus: 6, duration_s: 120.5, completed: 300, mean_input_len: 20000.5, mean_output_len: 250.25 });
    expect(f?.output_throughput).toBeCloseTo(400, 6);
    expect(f?.input_throughput).toBeCloseTo(29600, 6);
  });

  it('reads a single-node one over tp × pp × pcp_size', () => {
    const text = agentic({ is_multinode: false, tp: 4, pp: 1, pcp_size: 1, ep: 1, dp_attention: 'false', tput_per_gpu: 7500, output_tput_per_gpu: 100, input_tput_per_gpu: 7400 });
    const [f] = runFields(runGrammar(grammar, text).records);
    expect(f).toMatchObject({ client: 'aiperf', output_throughput: 400, num_gpus: 4, duration_s: 120.5 });
  });

  it('keeps a fixed-length result (no scenario_type) as before', () => {
    const text = JSON.stringify({ hw: 'h100', conc: 8, model: 'm', framework: 'vllm', precision: 'fp8', is_multinode: false, tp: 2, tput_per_gpu: 10, output_tput_per_gpu: 4, input_tput_per_gpu: 6, duration_seconds: 9 }, null, 2);
    const [f] = runFields(runGrammar(grammar, text).records);
    expect(f).toMatchObject({ client: 'inferencex-benchmark-serving', duration_seconds: 9 });
    expect(f).not.toHaveProperty('duration_s');
  });
});
