import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { capExtraColumns, MAX_EXTRA_COLUMNS } from '../../src/normalize/extra-columns.js';
import type { RunRow } from '../../src/normalize/runs-table.js';

/** A run row with its canonical cells and `extra` columns no schema names. */
function row(file: string, extra: readonly string[]): RunRow {
  const r: RunRow = { source_file: file, source_line: 3, request_throughput: 1.5, common: 1 };
  for (const c of extra) r[c] = 2;
  return r;
}

const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}_${String(i).padStart(4, '0')}`);

describe('capExtraColumns', () => {
  it('leaves a table with no more extra columns than the cap as it is', () => {
    const rows = [row('a.log', names('x', 10)), row('b.log', names('y', 10))];
    const sink = new DiagnosticCollector();
    expect(capExtraColumns(rows, sink)).toBeNull();
    expect(Object.keys(rows[0] ?? {})).toHaveLength(14);
    expect(sink.list()).toEqual([]);
  });

  it('keeps the extra columns most runs have, then by name, and says how many it left out and where', () => {
    const rows = [row('a.log', names('b', 1500)), row('b.log', names('a', 1000))];
    const sink = new DiagnosticCollector();
    const kept = capExtraColumns(rows, sink);
    expect(kept?.size).toBe(MAX_EXTRA_COLUMNS);
    // `common` is in both rows; then the names in order: all of `a_…`, the first 999 of `b_…`
    expect(kept?.has('common')).toBe(true);
    expect(kept?.has('a_0999')).toBe(true);
    expect(kept?.has('b_0998')).toBe(true);
    expect(kept?.has('b_0999')).toBe(false);
    expect(rows[0]).toMatchObject({ source_file: 'a.log', request_throughput: 1.5, common: 1, b_0998: 2 });
    expect(rows[0]).not.toHaveProperty('b_0999');
    expect(Object.keys(rows[1] ?? {})).toHaveLength(1004);
    expect(sink.list().map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`)).toEqual([
      `a.log:3 normalize/too-many-columns 501 columns no schema names left out of the table, beyond the 2000 that the most runs have (first left out: "b_0999"): labels this many are not a tool's metrics`,
    ]);
  });
});
