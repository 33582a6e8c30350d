import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { FORMAT_IDS } from '../../src/core/format-ids.js';
import { FIXTURES } from '../helpers/fixtures.js';

const GRAMMAR_DIR = path.resolve(import.meta.dirname, '../../grammars');

describe('grammar registry', () => {
  it('has one folder per format id, named after it', () => {
    const folders = readdirSync(GRAMMAR_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
      .map((d) => d.name)
      .sort();
    expect(folders).toEqual([...FORMAT_IDS].sort());
    for (const id of FORMAT_IDS) expect(GRAMMARS[id].id).toBe(id);
  });

  it.each([...FORMAT_IDS])('%s has a README and a basic and a CRLF fixture case', (id) => {
    expect(existsSync(path.join(GRAMMAR_DIR, id, 'README.md'))).toBe(true);
    const cases = readdirSync(path.join(FIXTURES, id));
    expect(cases.some((c) => c.startsWith('basic'))).toBe(true);
    expect(cases.some((c) => c.includes('crlf'))).toBe(true);
  });
});
