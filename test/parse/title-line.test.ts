import { describe, expect, it } from 'vitest';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken, titleLineToken } from '../../src/parse/chevrotain.js';

const RULE = /^\|=+(?:\|=+)*\|$/;
const Title = titleLineToken((line) => !line.startsWith('|'), (following) => RULE.test(following.split('\n', 1)[0] ?? ''));
const Spaced = titleLineToken((line) => !line.startsWith('|'), (following) => /^\s*\|=/.test(following));
const Other = lineToken('Other', /^/);
const lex = (title: typeof Title, text: string): string[] => new Lexer([title, Other, newlineToken()]).tokenize(text).tokens.map((t) => t.tokenType.name);

describe('a table title token', () => {
  it('is the short line right above a table rule, however wide the rule', () => {
    const wide = `|${Array.from({ length: 60 }, () => '=====').join('|')}|`;
    expect(wide.length).toBeGreaterThan(300);
    expect(lex(Title, `Run Summary Info\n${wide}\n`)).toEqual(['TitleLine', 'Newline', 'Other', 'Newline']);
    expect(lex(Title, `Run Summary Info\ntext\n${wide}`)).toEqual(['Other', 'Newline', 'TitleLine', 'Newline', 'Other']);
  });

  it('lets its grammar look past the next line (a blank line a paste put between title and table)', () => {
    expect(lex(Spaced, 'LLM Metrics\n\n|====|')[0]).toBe('TitleLine');
    expect(lex(Title, 'LLM Metrics\n\n|====|')[0]).toBe('Other');
  });

  it('is no title when longer than 160 characters, nor when empty (whatever its grammar accepts)', () => {
    expect(lex(Title, `${'x'.repeat(161)}\n|====|`)[0]).toBe('Other');
    expect(lex(Title, '\n|====|')).toEqual(['Newline', 'Other']);
  });
});
