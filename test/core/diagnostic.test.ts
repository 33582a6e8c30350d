import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';

describe('DiagnosticCollector', () => {
  it('lists 50 of a code per file and says, at that code’s severity, how many more there were', () => {
    const sink = new DiagnosticCollector();
    const file = asRelPath('x.csv');
    for (let line = 2; line < 62; line++) sink.report('table/bad-cell', { file, line, column: 1 }, 'TTFT', 'x');
    sink.report('table/bad-cell', { file: asRelPath('y.csv'), line: 2, column: 1 }, 'TTFT', 'x');
    const listed = sink.list();
    expect(listed.filter((d) => d.file === 'x.csv')).toHaveLength(51);
    const note = listed.find((d) => d.message.startsWith('…'));
    expect(note).toEqual({ code: 'table/bad-cell', severity: 'warning', message: '… and 10 more table/bad-cell not listed', file: 'x.csv', line: 2, column: 1 });
    // another file's diagnostics of the code are its own
    expect(listed.filter((d) => d.file === 'y.csv')).toHaveLength(1);
  });
});
