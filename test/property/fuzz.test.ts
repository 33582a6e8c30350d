import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCase, removeFuzzFolder } from '../../scripts/fuzz/check.js';
import { mutations } from '../../scripts/fuzz/mutate.js';
import { fixtureCases } from '../helpers/fixtures.js';

/** The fixed-seed short version of `npm run fuzz` that CI runs: the first mutations of every fixture. */
const cases = fixtureCases();
afterAll(removeFuzzFolder);

describe.each(cases)('fuzz $format/$name', (c) => {
  it('survives its mutations without exceptions, hangs or silent changes', () => {
    const original = readFileSync(c.input);
    const other = readFileSync(cases[(cases.indexOf(c) + 1) % cases.length]?.input ?? c.input);
    const problems: string[] = [];
    let n = 0;
    for (const m of mutations(original, other, 1, 256 * 1024)) {
      if (m.kind === 'truncation' && n % 3 !== 0) {
        n++;
        continue;
      }
      n++;
      const r = checkCase(original, m, 10_000);
      if (!r.ok) problems.push(`${m.name}: ${r.problem}`);
    }
    expect(problems).toEqual([]);
  });
});
