import { describe, expect, it } from 'vitest';
import type { FormatId } from '../../src/core/format-ids.js';
import type { RelPath } from '../../src/core/types.js';
import { assembleScan, takeRecords } from '../../src/pipeline/scan-result.js';
import type { FileOutcome } from '../../src/pipeline/process-file.js';

const file = 'a.log' as RelPath;

function outcome(runs: number): FileOutcome {
  const records = Array.from({ length: runs }, (_, i) => ({
    format: 'vllm-bench-serve' as FormatId,
    record: { kind: 'run' as const, at: { file, line: i + 1, column: 1 }, label: null, complete: true, fields: { completed: i }, lines: {} },
  }));
  const report = { path: file, status: 'parsed' as const, formats: ['vllm-bench-serve' as FormatId], bytes: 10, runs, records: runs, errors: 0, warnings: 0, infos: 0 };
  return { report, records, diagnostics: [] };
}

describe('the records of a scan', () => {
  it('are moved out of it, so a reference to the scan left behind holds none of them', () => {
    const result = assembleScan([], [outcome(2), outcome(1)]);
    const records = takeRecords(result);
    expect(records.map((r) => r.record.kind === 'run' && r.record.fields.completed)).toEqual([0, 1, 0]);
    expect(result.records).toEqual([]);
    expect(result.files).toHaveLength(2);
  });
});
