import { describe, expect, it } from 'vitest';
import { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags, isSecretFlag } from '../../src/normalize/flags.js';
import { canonicalSpecMethod } from '../../src/normalize/spec-method.js';

describe('addFlags', () => {
  it("puts one setting's spellings in one column: SGLang's and vLLM's, trtllm-bench's and trtllm-serve's", () => {
    const b = new FieldMapBuilder();
    addFlags(b, { 'dcp-size': 2, attention_context_parallel_size: 2, moe_data_parallel_size: 4, kv_cache_free_gpu_mem_fraction: 0.9 }, 1);
    expect(b.fields).toEqual({ decode_context_parallel_size: 2, attn_cp_size: 2, moe_dp_size: 4, kv_cache_free_gpu_memory_fraction: 0.9 });
    // vLLM's attention config names the backend the flag and the environment variable name
    const attention = new FieldMapBuilder();
    addFlags(attention, { attention_config: '{"backend": "FLASHINFER"}' }, 1);
    expect(attention.fields).toMatchObject({ attention_backend: 'FLASHINFER' });
    const dotted = new FieldMapBuilder();
    addFlags(dotted, { 'attention-config.backend': 'TRITON_ATTN' }, 1);
    expect(dotted.fields).toEqual({ attention_backend: 'TRITON_ATTN' });
    // SGLang DFLASH's block size is its draft tokens a step
    const dflash = new FieldMapBuilder();
    addFlags(dflash, { speculative_algorithm: 'DFLASH', speculative_dflash_block_size: 8 }, 1);
    expect(dflash.fields).toMatchObject({ spec_num_draft_tokens: 8 });
  });

  it("reads a dataset's length knobs as the run's lengths only for the datasets that take them", () => {
    // a Namespace dump holds every default: a ShareGPT run's random lengths are not its lengths
    const sharegpt = new FieldMapBuilder();
    addFlags(sharegpt, { dataset_name: 'sharegpt', random_input_len: 1024, random_output_len: 128, sharegpt_output_len: null }, 1);
    expect(sharegpt.fields).toEqual({ dataset: 'sharegpt', random_input_len: 1024, random_output_len: 128 });
    const random = new FieldMapBuilder();
    addFlags(random, { dataset_name: 'random', random_input_len: 1024, random_output_len: 128, sharegpt_output_len: 256 }, 1);
    expect(random.fields).toEqual({ dataset: 'random', input_len: 1024, output_len: 128, sharegpt_output_len: 256 });
    // no dataset named: the knobs given are the run's
    const unnamed = new FieldMapBuilder();
    addFlags(unnamed, { random_input_len: 512 }, 1);
    expect(unnamed.fields).toEqual({ input_len: 512 });
    // a command's flags come one at a time: its dataset is passed along
    const oneByOne = new FieldMapBuilder();
    addFlags(oneByOne, { 'random-input-len': 512 }, 1, 'sharegpt');
    expect(oneByOne.fields).toEqual({ random_input_len: 512 });
    // argparse's prefixes of them (`--random-input 8000`), as a recipe writes them
    const abbreviated = new FieldMapBuilder();
    addFlags(abbreviated, { dataset_name: 'random', 'random-input': 8000, 'random-output': 1024 }, 1);
    expect(abbreviated.fields).toEqual({ dataset: 'random', input_len: 8000, output_len: 1024 });
  });

  it('never keeps a credential as a column, whatever the flag is called', () => {
    const b = new FieldMapBuilder();
    addFlags(b, { hf_token: 'hf_abc', api_key: 'sk-1', 'openai-api-key': 'sk-2', authorization: 'Bearer x', key: 'k', db_password: 'p', client_secret: 's', max_num_seqs: 64, num_speculative_tokens: 3, max_tokens: 128, allow_credentials: false }, 1);
    expect(b.fields).toEqual({ max_num_seqs: 64, num_spec_tokens: 3, max_tokens: 128, allow_credentials: false });
  });

  it('tells credentials from look-alike settings', () => {
    for (const secret of ['hf_token', 'api_key', 'apikey', 'authorization', 'password', 'aws_secret', 'credentials', 'key']) expect(isSecretFlag(secret, 'x')).toBe(true);
    for (const setting of ['max_tokens', 'num_spec_tokens', 'tokenizer', 'max_num_batched_tokens', 'prefix_len', 'cache_key']) expect(isSecretFlag(setting, 'x')).toBe(false);
    // a switch named like one is no secret
    expect(isSecretFlag('allow_credentials', false)).toBe(false);
  });
});

describe('canonicalSpecMethod', () => {
  it("reads SGLang's NEXTN as the MTP head it runs, as vLLM's deepseek_mtp", () => {
    expect(canonicalSpecMethod('NEXTN')).toBe('mtp');
    expect(canonicalSpecMethod('deepseek_mtp')).toBe('mtp');
  });
});
