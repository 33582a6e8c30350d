import type { DiagnosticSink } from '../core/diagnostic.js';
import type { BenchRecord } from '../core/records.js';

/**
 * Records and diagnostics of a grammar that read a window of a file (its tail) as if the window
 * were the whole file: `offset` lines come before the window, so every line number moves by it.
 */
export function shiftRecord(record: BenchRecord, offset: number): BenchRecord {
  const at = { ...record.at, line: record.at.line + offset };
  if (record.kind === 'failure') return { ...record, at };
  const lines: Record<string, number> = {};
  for (const [column, line] of Object.entries(record.lines)) lines[column] = line + offset;
  return { ...record, at, lines };
}

export function shiftedSink(sink: DiagnosticSink, offset: number): DiagnosticSink {
  return {
    report(code, at, ...args) {
      // the one message whose argument is a line number
      if (code === 'parse/unrecognized-lines') args[1] = (args[1] as number) + offset;
      sink.report(code, { ...at, line: at.line + offset }, ...args);
    },
  };
}
