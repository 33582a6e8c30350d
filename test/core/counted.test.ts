import { describe, expect, it } from 'vitest';
import { counted } from '../../src/core/counted.js';

describe('counted', () => {
  it('gives the singular for one and the plural otherwise, zero included', () => {
    expect([0, 1, 2].map((n) => counted(n, 'run'))).toEqual(['0 runs', '1 run', '2 runs']);
  });

  it('takes a plural that is not the singular and an s', () => {
    expect([1, 3].map((n) => counted(n, 'entry', 'entries'))).toEqual(['1 entry', '3 entries']);
  });
});
