import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { BenchRecord } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { remappedSink, remapRecord, withoutLines } from '../../src/core/remap-lines.js';

const file = 'serve.log' as RelPath;
const plus = (offset: number) => (line: number) => line + offset;

describe('mapping what a grammar read from some lines of a file back to the file', () => {
  it('moves a record and the line of every value', () => {
    const run: BenchRecord = { kind: 'run', at: { file, line: 3, column: 1 }, label: null, complete: true, fields: { completed: 10, duration_s: 2 }, lines: { completed: 4, duration_s: 5 } };
    expect(remapRecord(run, plus(100))).toEqual({ ...run, at: { file, line: 103, column: 1 }, lines: { completed: 104, duration_s: 105 } });
    // a run whose per-value lines were dropped keeps the line of its last value: moved too
    const kept: BenchRecord = { ...run, lines: {}, lastLine: 6 };
    expect(remapRecord(kept, plus(100))).toMatchObject({ at: { line: 103 }, lastLine: 106 });
    const failure: BenchRecord = { kind: 'failure', at: { file, line: 7, column: 2 }, exception: 'RuntimeError', message: 'x' };
    expect(remapRecord(failure, plus(10))).toEqual({ ...failure, at: { file, line: 17, column: 2 } });
  });

  it('moves diagnostics', () => {
    const sink = new DiagnosticCollector();
    remappedSink(sink, plus(1000)).report('parse/unrecognized-lines', { file, line: 5, column: 1 }, 3);
    remappedSink(sink, plus(1000)).report('block/empty', { file, line: 9, column: 4 });
    expect(sink.list().map((d) => [d.line, d.column, d.message])).toEqual([
      [1005, 1, '3 lines not recognized, the first here'],
      [1009, 4, 'result block has no values'],
    ]);
  });

  it('leaves lines out of a source, mapping the rest back and keeping a cut last line cut only when kept', () => {
    const source = { path: file, lines: ['a', 'log', 'b', 'c'], unterminated: true };
    const kept = withoutLines(source, (text) => text === 'log');
    expect(kept.source).toEqual({ path: file, lines: ['a', 'b', 'c'], unterminated: true });
    expect([1, 2, 3].map(kept.lineOf)).toEqual([1, 3, 4]);
    expect(kept.dropped).toEqual([2]);
    expect(withoutLines(source, (_, i) => i === 3).source).toEqual({ path: file, lines: ['a', 'log', 'b'] });
  });

  it("keeps the heads of the lines it keeps that a redraw took the place of, at their new indexes", () => {
    const source = { path: file, lines: ['a', 'log', 'bar', 'c'], overwritten: new Map([[1, 'x'], [2, 'Total input tokens: 1638']]) };
    expect(withoutLines(source, (text) => text === 'log').source.overwritten).toEqual(new Map([[1, 'Total input tokens: 1638']]));
    expect(withoutLines(source, (text) => text === 'log' || text === 'bar').source).not.toHaveProperty('overwritten');
  });
});
