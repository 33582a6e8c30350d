import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { BenchRecord } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { shiftedSink, shiftRecord } from '../../src/pipeline/shift-lines.js';

const file = 'serve.log' as RelPath;

describe('shifting what a grammar read from a window of a file', () => {
  it('moves a record and the line of every value', () => {
    const run: BenchRecord = { kind: 'run', at: { file, line: 3, column: 1 }, label: null, complete: true, fields: { completed: 10, duration_s: 2 }, lines: { completed: 4, duration_s: 5 } };
    expect(shiftRecord(run, 100)).toEqual({ ...run, at: { file, line: 103, column: 1 }, lines: { completed: 104, duration_s: 105 } });
    const failure: BenchRecord = { kind: 'failure', at: { file, line: 7, column: 2 }, exception: 'RuntimeError', message: 'x' };
    expect(shiftRecord(failure, 10)).toEqual({ ...failure, at: { file, line: 17, column: 2 } });
  });

  it('moves diagnostics, and the line a message names', () => {
    const sink = new DiagnosticCollector();
    shiftedSink(sink, 1000).report('parse/unrecognized-lines', { file, line: 5, column: 1 }, 3, 5);
    shiftedSink(sink, 1000).report('block/empty', { file, line: 9, column: 4 });
    expect(sink.list().map((d) => [d.line, d.column, d.message])).toEqual([
      [1005, 1, '3 lines not recognized (first at line 1005)'],
      [1009, 4, 'result block has no values'],
    ]);
  });
});
