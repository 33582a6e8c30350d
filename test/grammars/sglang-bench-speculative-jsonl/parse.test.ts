import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/sglang-bench-speculative-jsonl/index.js';
import { grammar as oneBatchServer } from '../../../grammars/sglang-bench-one-batch-server/index.js';
import { grammar as sglangResultJsonl } from '../../../grammars/sglang-bench-result-jsonl/index.js';
import { grammar as specdecodeStudy } from '../../../grammars/specdecode-study-jsonl/index.js';
import { grammar as vllmResultJson } from '../../../grammars/vllm-bench-result-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** One line as bench_speculative.py writes it (sgl-project/sglang 96fd6bf0, key order kept). */
const line = (o: { batch_size: number; steps: number; topk: number; num_draft_tokens: number; acc_length: number; step_time: number; speed: number }, extra: object = {}) =>
  JSON.stringify({ ...o, completion_tokens: 512.0, ...extra });

const BASE = { batch_size: 4, steps: 0, topk: 0, num_draft_tokens: 0, acc_length: 1.0, step_time: 0.00685, speed: 145.941 };
const SPEC = { batch_size: 4, steps: 3, topk: 1, num_draft_tokens: 4, acc_length: 3.102, step_time: 0.00934, speed: 332.22 };
const path = asRelPath('output.jsonl');

describe('sglang-bench-speculative-jsonl', () => {
  it('detects the record by its keys, whatever the file is called', () => {
    const head = `${line(BASE)}\n${line(SPEC)}\n`;
    expect(grammar.detect({ path: asRelPath('results.txt'), head }).score).toBeGreaterThan(0);
    // without the step time it is not this script's record (bench_one_batch_server also writes acc_length)
    const { step_time: _s, ...noStep } = SPEC;
    expect(grammar.detect({ path, head: JSON.stringify(noStep) }).score).toBe(0);
    expect(grammar.detect({ path, head: 'Finish i=0: batch_size=1, steps=0' }).score).toBe(0);
  });

  it('is not claimed by the other SGLang / vLLM / study JSONL grammars', () => {
    const head = `${line(BASE)}\n${line(SPEC, { model_path: 'meta-llama/Llama-3.1-8B-Instruct' })}\n`;
    for (const other of [sglangResultJsonl, specdecodeStudy, vllmResultJson, oneBatchServer]) expect(other.detect({ path, head }).score).toBe(0);
  });

  it('reads the all-zero grid point as the run without speculation, with no acceptance length', () => {
    const [base] = runFields(runGrammar(grammar, line(BASE)).records);
    expect(base).toMatchObject({ engine: 'sglang', client: 'sglang-bench-speculative', spec_method: 'none' });
    // the script writes 1.0 when the server reports no acceptance: not a measurement
    expect(base).not.toHaveProperty('spec_acceptance_length');
    for (const c of ['num_spec_tokens', 'spec_num_steps', 'spec_eagle_topk', 'spec_num_draft_tokens']) expect(base).not.toHaveProperty(c);
  });

  it('maps the three knobs to the SGLang columns and num_spec_tokens to the draft tokens', () => {
    const [spec] = runFields(runGrammar(grammar, line({ ...SPEC, steps: 5, topk: 4, num_draft_tokens: 8 })).records);
    expect(spec).toMatchObject({ spec_num_steps: 5, spec_eagle_topk: 4, spec_num_draft_tokens: 8, num_spec_tokens: 8, spec_acceptance_length: 3.102 });
    // the line does not say which algorithm (EAGLE, EAGLE3, NEXTN…): left to the path, a manifest or a server log
    expect(spec).not.toHaveProperty('spec_method');
  });

  it('takes the batch size as the batch, the concurrency cap and the running-request limit', () => {
    const [spec] = runFields(runGrammar(grammar, line(SPEC)).records);
    expect(spec).toMatchObject({ batch_size: 4, max_concurrency: 4, max_num_seqs: 4 });
  });

  it('converts the step time to ms and scales the per-sequence speed to the batch', () => {
    const [spec] = runFields(runGrammar(grammar, line({ ...SPEC, batch_size: 16, step_time: 0.01583, speed: 193.586 })).records);
    expect(spec?.p20_step_time_ms).toBe(15.83);
    expect(spec?.output_speed_per_user).toBe(193.586);
    expect(spec?.output_throughput).toBe(3097.376);
    expect(spec?.mean_output_len).toBe(512);
  });

  it("reads a fork's model_path as the model and keeps other keys, null ones dropped", () => {
    const text = line(SPEC, { model_path: 'meta-llama/Llama-3.1-8B-Instruct', speed_real: null, note: 'rerun' });
    const [spec] = runFields(runGrammar(grammar, text).records);
    expect(spec).toMatchObject({ model: 'meta-llama/Llama-3.1-8B-Instruct', note: 'rerun' });
    expect(spec).not.toHaveProperty('model_path');
    expect(spec).not.toHaveProperty('speed_real');
  });

  it('keeps the lines before a cut last line, with a warning', () => {
    const text = `${line(BASE)}\n${line(SPEC).slice(0, 40)}`;
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toHaveLength(1);
    expect(diagnostics.map((d) => [d.code, d.severity])).toContainEqual(['json/cut', 'warning']);
  });
});
