import { describe, expect, it } from 'vitest';
import { lazily } from '../../src/parse/lazily.js';
import { signature } from '../../src/parse/signature.js';

describe('signature', () => {
  const header = signature(['Serving Benchmark Result'], /^\W{0,8}=+ ?Serving Benchmark Result ?=+/m);

  it('answers as its expression does when a literal is there', () => {
    expect(header.test('x\n============ Serving Benchmark Result ============\n')).toBe(true);
    expect(header.test('x\nSee the Serving Benchmark Result below\n')).toBe(false);
  });

  it('does not run the expression without any literal', () => {
    let ran = 0;
    const counting = new RegExp('a');
    counting.test = (s: string): boolean => {
      ran++;
      return RegExp.prototype.test.call(/a/, s);
    };
    const sig = signature(['needle'], counting);
    expect(sig.test('a haystack')).toBe(false);
    expect(ran).toBe(0);
    expect(sig.test('a needle')).toBe(true);
    expect(ran).toBe(1);
  });

  it('refuses stateful (g, y) expressions, whose test would depend on the last call', () => {
    expect(() => signature(['a'], /a/g)).toThrow(/no g or y/);
    expect(() => signature(['a'], /a/y)).toThrow(/no g or y/);
  });
});

describe('lazily', () => {
  it('builds on first use, once', () => {
    let built = 0;
    const get = lazily(() => ({ n: ++built }));
    expect(built).toBe(0);
    expect(get()).toBe(get());
    expect(built).toBe(1);
  });
});
