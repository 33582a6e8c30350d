import { describe, expect, it } from 'vitest';
import { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags, isSecretFlag } from '../../src/normalize/flags.js';

describe('addFlags', () => {
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
