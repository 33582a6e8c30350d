import { describe, expect, it } from 'vitest';
import { inertLine } from '../../src/core/diagnostic.js';

describe('inertLine', () => {
  it('writes the control characters a log carried as escapes a terminal shows, and keeps the rest', () => {
    expect(inertLine('model \x1b[31mred\x1b[0m\rback\nnew\x00\x7f')).toBe('model \\u001b[31mred\\u001b[0m\\u000dback\\u000anew\\u0000\\u007f');
    expect(inertLine('a\tb · ü ✓ "quoted" \\n')).toBe('a\tb · ü ✓ "quoted" \\n');
  });
});
