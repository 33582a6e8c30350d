import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TextSource } from '../../src/core/grammar.js';
import { asRelPath } from '../../src/core/types.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { withoutNumberRuns } from '../../src/ingest/number-runs.js';
import { fromText, HEAD_CHARS, headOf, tailOf } from '../../src/ingest/read.js';
import { scoredClaims } from '../../src/pipeline/claims.js';
import { fixtureCases } from '../helpers/fixtures.js';

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => (from + i) / 7).join(', ');

/** A JSON text with each array of two or more numbers forty times as long (its numbers repeated). */
function stretched(text: string): string {
  if (!/^\s*[{[]/.test(text)) return text;
  return text.replace(/\[(\s*-?\d[\d.eE+-]*(?:\s*,\s*-?\d[\d.eE+-]*)+\s*)\]/g, (_, inner: string) => `[${Array(40).fill(inner.trim()).join(', ')}]`);
}

describe('withoutNumberRuns', () => {
  it('keeps the first of a run of eight or more numbers, and the bracket that closes it', () => {
    expect(withoutNumberRuns(`{"ttfts": [${numbers(640)}], "itls": []}`)).toBe('{"ttfts": [0], "itls": []}');
    expect(withoutNumberRuns('{"x":[-1.5e-05,2,3E+4,4,5,6,7,8,9]}')).toBe('{"x":[-1.5e-05]}');
  });

  it('leaves short arrays, strings of digits and other values as they are', () => {
    const text = `{"sizes": [${numbers(7)}], "names": ["1", "2", "3", "4", "5", "6", "7", "8", "9"], "mixed": [1, 2, null, 4, 5, 6, 7, 8, 9], "rate": 8.5}`;
    expect(withoutNumberRuns(text)).toBe(text);
  });

  it('collapses a run of arrays of numbers, long or short, to the first', () => {
    const itls = Array.from({ length: 40 }, (_, i) => `[${numbers(i % 12, i)}]`).join(', ');
    expect(withoutNumberRuns(`{"itls": [${itls}], "errors": ["", ""]}`)).toBe('{"itls": [[]], "errors": ["", ""]}');
    expect(withoutNumberRuns(`{"itls": [[${numbers(30)}], [${numbers(3)}], [4], [5], [6], [7], [8], [9]]}`)).toBe('{"itls": [[0]]}');
  });

  it('collapses a run a tail window starts inside of, even inside a number or after a comma', () => {
    expect(withoutNumberRuns(`${numbers(20, 3)}], "model_id": "m"}\n`)).toBe('0.42857142857142855], "model_id": "m"}\n');
    expect(withoutNumberRuns(`, ${numbers(20, 3)}]}`)).toBe('0.42857142857142855]}');
    expect(withoutNumberRuns(`.5e-05, ${numbers(20, 3)}]}`)).toBe('.5e-05]}');
  });

  it('keeps keys after a cut run (a head that ends inside it)', () => {
    expect(withoutNumberRuns(`{"backend": "vllm", "ttfts": [${numbers(100)}`)).toBe('{"backend": "vllm", "ttfts": [0');
  });
});

describe('detection heads without number runs', () => {
  const sourceOf = (text: string): TextSource => fromText(text, asRelPath('r.json'), new DiagnosticCollector());

  it('are taken only of JSON sources', () => {
    const log = `INFO cudagraph sizes [${numbers(40)}]\n`;
    expect(headOf(sourceOf(log)).head).toBe(log);
    expect(headOf(sourceOf(`\n{"ttfts": [${numbers(40)}]}\n`)).head).toBe('\n{"ttfts": [0]}\n');
  });

  it('of a long JSON text, for its tail too', () => {
    const tail = tailOf(sourceOf(`{"ttfts": [${numbers(20_000)}],\n"model_id": "m"}\n`));
    expect(tail?.head).toMatch(/^\d[\d.]*\],\n"model_id": "m"\}\n$/);
  });

  /**
   * Every fixture, and every JSON one again with each of its arrays of numbers stretched to forty
   * times its length (as a detailed result's per-request arrays are): the heads without the runs
   * are claimed exactly as the whole heads.
   */
  it('are claimed by the same grammars with the same scores as the whole heads', () => {
    const claims = (h: string) => scoredClaims({ path: asRelPath('r.json'), head: h }).map((x) => `${x.g.id} ${x.score}`);
    let stretchedFixtures = 0;
    for (const c of fixtureCases()) {
      const text = readFileSync(c.input, 'latin1');
      const long = stretched(text);
      if (long !== text) stretchedFixtures++;
      for (const t of long === text ? [text] : [text, long]) {
        const source = sourceOf(t);
        const whole = source.lines.join('\n').slice(0, HEAD_CHARS);
        expect(claims(headOf(source).head), `${c.format}/${c.name}`).toEqual(claims(whole));
      }
    }
    // not vacuous: the JSON fixtures of many formats have arrays of numbers
    expect(stretchedFixtures).toBeGreaterThan(20);
  });
});
