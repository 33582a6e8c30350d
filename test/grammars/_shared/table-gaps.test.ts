import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Grammar } from '../../../src/core/grammar.js';
import { tableGaps } from '../../../grammars/_shared/table-gaps.js';
import { grammar as evalscope } from '../../../grammars/evalscope-perf-console/index.js';
import { grammar as genaiPerf } from '../../../grammars/genai-perf-console/index.js';
import { grammar as guidellm } from '../../../grammars/guidellm-console/index.js';
import { grammar as tgi } from '../../../grammars/tgi-benchmark/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** `framed`: a box-drawing or grid table, where a line of text is read across too. */
const CASES: readonly { name: string; grammar: Grammar; fixture: string; framed: boolean }[] = [
  { name: 'EvalScope, rich tables', grammar: evalscope, fixture: 'fixtures/evalscope-perf-console/basic/input.txt', framed: true },
  { name: 'EvalScope, tabulate grid', grammar: evalscope, fixture: 'fixtures/evalscope-perf-console/layout-2024-grid-pretty/input.txt', framed: true },
  { name: 'GenAI-Perf', grammar: genaiPerf, fixture: 'fixtures/genai-perf-console/basic/input.txt', framed: true },
  { name: 'GuideLLM', grammar: guidellm, fixture: 'fixtures/guidellm-console/basic/input.txt', framed: false },
  { name: 'TGI, Markdown tables one under another', grammar: tgi, fixture: 'fixtures/tgi-benchmark/basic/input.md', framed: false },
];

const TABLE_CHAR = /^\s*[│┃┏┡└├┌|+=]/;

/** What another process may write into a table: an empty line; a Python warning's source line (into a framed table). */
const GAPS: Readonly<Record<string, string>> = { 'a blank line': '', "a Python warning's second line": '  warnings.warn(' };

describe('a console table with a line written into it', () => {
  for (const c of CASES) for (const [gapName, gapLine] of Object.entries(GAPS)) {
    if (gapLine !== '' && !c.framed) continue;
    it(`is read across ${gapName}, after any of its lines (${c.name})`, () => {
      const lines = readFileSync(c.fixture, 'utf8').replace(/\r/g, '').split('\n');
      const clean = runFields(runGrammar(c.grammar, lines.join('\n')).records);
      expect(clean.length).toBeGreaterThan(0);
      let inside = 0;
      let gapless = 0;
      for (let i = 0; i + 1 < lines.length; i++) {
        // between two lines of one table
        if (!TABLE_CHAR.test(lines[i] as string) || !TABLE_CHAR.test(lines[i + 1] as string)) continue;
        inside++;
        const { records, diagnostics } = runGrammar(c.grammar, [...lines.slice(0, i + 1), gapLine, ...lines.slice(i + 1)].join('\n'));
        const where = `after line ${i + 1}`;
        expect(runFields(records), where).toEqual(clean);
        expect(diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code), where).toEqual(runGrammar(c.grammar, lines.join('\n')).diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code));
        // said where it is when it is among a run's lines (not after a run's last row, say)
        const gap = diagnostics.find((d) => d.code === 'block/gap-line');
        if (gap) expect(gap.line, where).toBe(i + 2);
        else gapless++;
      }
      expect(gapless).toBeLessThan(inside / 2);
      expect(inside).toBeGreaterThan(5);
    });
  }
});

describe('blank lines inside a table', () => {
  const inside = (text: string): number[] => [...tableGaps(text.split('\n'), () => false).lines].sort((a, b) => a - b);

  it('are those between two of its rows, its top border and a row, or a row and its bottom border', () => {
    expect(inside(['┏━━━┓', '', '┃ a ┃', '', '│ 1 │', '', '└───┘'].join('\n'))).toEqual([1, 3, 5]);
    const grid = '+----------+';
    expect(inside([grid, '', '| a        |', '', grid, '', '| 1        |', grid].join('\n'))).toEqual([1, 3, 5]);
    expect(inside(['==========', '', 'Benchmark| Start| End', '', '  sync|   14:02| 14:03'].join('\n'))).toEqual([1, 3]);
  });

  it('are not those between two tables, more than three in a row, or before a Markdown table', () => {
    // a bottom border, then a top one: two grid tables
    expect(inside(['| 1        |', '+----------+', '', '+----------+', '| a        |'].join('\n'))).toEqual([]);
    expect(inside(['│ 1 │', '└───┘', '', '┌───┐', '│ a │'].join('\n'))).toEqual([]);
    expect(inside(['| 1 | 2 |', '', '', '', '', '| 3 | 4 |'].join('\n'))).toEqual([]);
    expect(inside(['| a | b |', '|---|---|', '| 1 | 2 |', '', '| c | d |', '|---|---|', '| 3 | 4 |'].join('\n'))).toEqual([]);
    // text between: no table goes on
    expect(inside(['│ 1 │', '└───┘', '', 'Percentile results:', '', '┌───┐', '│ a │'].join('\n'))).toEqual([]);
  });

  it('are lines of text only between two lines of a framed table, and those with numbers are told apart', () => {
    const gaps = tableGaps(['│ a │', '  warnings.warn(', '│ 1 │', 'cut 12', '└───┘'], () => false);
    expect([[...gaps.lines], [...gaps.numbered]]).toEqual([[1, 3], [3]]);
    // a grid table's (tabulate's, EvalScope's): next to one of its `+---+` borders
    expect([...tableGaps(['+----------+', '  warnings.warn(', '| a        |', 'text', '+==========+'], () => false).lines]).toEqual([1, 3]);
    // GuideLLM 0.3's rows, which may wrap onto a line of text, are not framed, nor is a Markdown table
    expect([...tableGaps(['  sync|   14:02| 14:03', 'wrapped text', '  rate|   14:04| 14:05'], () => false).lines]).toEqual([]);
    expect([...tableGaps(['| a | b |', '|---|---|', '| 1 | 2 |', 'text', '| 3 | 4 |'], () => false).lines]).toEqual([]);
  });

  it('are found past the lines another process wrote and inside quoted or commented lines', () => {
    const lines = ['> │ a │', '>', 'INFO:     127.0.0.1:1 - "POST /v1/completions HTTP/1.1" 200 OK', '> │ 1 │'];
    expect([...tableGaps(lines, (i) => i === 2).lines]).toEqual([1]);
  });
});
