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

  it('keeps stray quotes as text', () => {
    expect(rows('a,5"x,b').rows).toEqual([[1, 'a', '5"x', 'b']]);
    expect(rows('a,b\nc,"').rows).toEqual([
      [1, 'a', 'b'],
      [2, 'c', '"'],
    ]);
  });

  it('reads a quoted cell the text ends inside as one cell, its row cut', () => {
    const sink = new DiagnosticCollector();
    const read = [...csvRows({ path: asRelPath('t.csv'), lines: ['a,b', 'c,"1,2'] }, sink)];
    expect(read.map((r) => [r.line, r.cells, r.cut ?? false])).toEqual([
      [1, ['a', 'b'], false],
      [2, ['c', '1,2'], true],
    ]);
    expect(sink.list()).toEqual([]);
    // a quote that opens a cell and closes on a later line is a whole cell, as before
    expect(rows('x,"1,\n2",y\nz').rows).toEqual([
      [1, 'x', '1,\n2', 'y'],
      [3, 'z'],
    ]);
  });
});
