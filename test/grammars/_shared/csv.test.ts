import { describe, expect, it } from 'vitest';
import { csvRows } from '../../../grammars/_shared/csv/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';

function rows(text: string) {
  const sink = new DiagnosticCollector();
  const out = [...csvRows({ path: asRelPath('t.csv'), lines: text.split('\n') }, sink)];
  return { rows: out.map((r) => [r.line, ...r.cells]), diagnostics: sink.list().map((d) => `${d.line} ${d.code}`) };
}

describe('shared CSV grammar', () => {
  it('unquotes fields, keeps empty cells and skips blank lines', () => {
    expect(rows('Metric,avg\nA (ms),"1,146.31"\n\n,x,\n"say ""hi""",2').rows).toEqual([
      [1, 'Metric', 'avg'],
      [2, 'A (ms)', '1,146.31'],
      [4, '', 'x', ''],
      [5, 'say "hi"', '2'],
    ]);
  });

  it('keeps stray and unterminated quotes as text', () => {
    expect(rows('a,5"x,b').rows).toEqual([[1, 'a', '5"x', 'b']]);
    const cut = rows('a,b\nc,"1,2');
    expect(cut.rows).toEqual([
      [1, 'a', 'b'],
      [2, 'c', '"1', '2'],
    ]);
    expect(cut.diagnostics).toEqual([]);
  });
});
