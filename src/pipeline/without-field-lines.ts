import { runLastLine } from '../core/records.js';
import { withoutValueLines } from '../core/timeline-series.js';
import type { FileOutcome, ParsedRecord } from './process-file.js';

const NO_LINES: Record<string, number> = Object.freeze({});

/**
 * Per-field source lines serve the golden tests of the grammars; after the scan only where a run
 * ends is read of them, and kept (its lastLine). A pooled scan drops them, whichever thread parsed
 * the file (so the output does not depend on that): it halves the objects held per run (peak RSS,
 * issue 7).
 */
export function withoutFieldLines(o: FileOutcome): FileOutcome {
  const records = o.records.map((r): ParsedRecord => {
    const { record } = r;
    if (record.kind === 'failure') return r;
    if (record.kind === 'timeline') return { format: r.format, record: { ...record, series: withoutValueLines(record.series) } };
    if (record.kind === 'run') {
      // written out, not `{ ...record, lastLine }`: V8 gives every object a spread adds a key to a map of its own (~200 bytes a run)
      const { kind, at, label, complete, fields } = record;
      return { format: r.format, record: { kind, at, label, complete, fields, lines: NO_LINES, lastLine: runLastLine(record) } };
    }
    return { format: r.format, record: { ...record, lines: NO_LINES } };
  });
  return { ...o, records };
}
