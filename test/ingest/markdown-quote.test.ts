import { describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { unquoted, withoutQuote } from '../../src/ingest/markdown-quote.js';

describe('Markdown quote markers', () => {
  it.each([
    ['> Successful requests: 40', 'Successful requests: 40'],
    ['> > Mean TTFT (ms): 45.18', 'Mean TTFT (ms): 45.18'],
    ['   > indented up to three spaces', 'indented up to three spaces'],
    ['>', ''],
    ['> ', ''],
    ['>  two spaces: one kept', ' two spaces: one kept'],
  ])('are read off %j', (line, bare) => {
    expect(withoutQuote(line)).toBe(bare);
  });

  it.each([
    ['>>> import benchlens', "Python's prompt"],
    ['>>>>>>> main', "a merge conflict's marker"],
    ['    > four spaces: a code block', 'a code block'],
    ['2 > 1', 'a comparison'],
    ['->x', 'an arrow'],
  ])('are not %j (%s)', (line) => {
    expect(withoutQuote(line)).toBe(line);
  });

  it('leave a source with no quoted line as it is, and keep every line number', () => {
    const plain = { path: asRelPath('a.md'), lines: ['# Title', 'prose'] };
    expect(unquoted(plain)).toBe(plain);
    expect(unquoted({ path: asRelPath('a.md'), lines: ['# Title', '> quoted', 'prose'] }).lines).toEqual(['# Title', 'quoted', 'prose']);
  });
});
