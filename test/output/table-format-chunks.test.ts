import { describe, expect, it } from 'vitest';
import type { FieldValue } from '../../src/core/types.js';
import { formatRowChunks, formatRows } from '../../src/output/table-format.js';
import { jsonRowChunks } from '../../src/output/json-rows.js';
import { rowFiller } from '../../src/normalize/runs-table.js';

type Row = Record<string, FieldValue>;

const rows: Row[] = [
  { run_id: 'a1', request_rate: Number.POSITIVE_INFINITY, ttft: 12.5, label: null },
  { run_id: 'b2', request_rate: 4, ttft: Number.NaN, label: 'line\nbreak "quoted"' },
  { run_id: 'c3', request_rate: Number.NEGATIVE_INFINITY, ttft: 1, label: 'x' },
];

describe('formatRowChunks', () => {
  for (const format of ['json', 'jsonl', 'csv', 'tsv', 'md'] as const) {
    it(`joins to exactly formatRows for ${format}`, () => {
      expect([...formatRowChunks(rows, format)].join('')).toBe(formatRows(rows, format));
      expect([...formatRowChunks([], format)].join('')).toBe(formatRows([], format));
    });
  }

  it('writes non-finite numbers as strings or null, and leaves the rows untouched', () => {
    const text = [...formatRowChunks(rows, 'jsonl')].join('');
    expect(text.split('\n')[0]).toBe('{"run_id":"a1","request_rate":"Infinity","ttft":12.5,"label":null}');
    expect(text.split('\n')[1]).toBe('{"run_id":"b2","request_rate":4,"ttft":null,"label":"line\\nbreak \\"quoted\\""}');
    expect(rows[0]?.request_rate).toBe(Number.POSITIVE_INFINITY);
  });

  it('splits a large table into pieces of about 1 MB', () => {
    const many: Row[] = Array.from({ length: 20_000 }, (_, i) => ({ run_id: `r${i}`, note: 'x'.repeat(100) }));
    const chunks = [...formatRowChunks(many, 'jsonl')];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(formatRows(many, 'jsonl'));
  });

  it('writes CSV and TSV of many rows in pieces, each with the same columns and only the first with a header', () => {
    const many: Row[] = Array.from({ length: 25_001 }, (_, i) => ({ run_id: `r${i}`, label: i % 3 ? `a,"b" ${i}` : null, x: i % 7 ? i / 3 : Number.POSITIVE_INFINITY, list: i % 5 ? null : [i, i + 1] }));
    for (const format of ['csv', 'tsv'] as const) {
      const chunks = [...formatRowChunks(many, format)];
      expect(chunks).toHaveLength(3);
      expect(chunks.join('')).toBe(formatRows(many, format));
    }
  });

  it('writes rows of different shapes in pieces as in one piece: every piece has the columns of the first row', () => {
    // rows that do not all have the same columns (a report's tables of other shapes)
    const mixed: Row[] = Array.from({ length: 10_002 }, (_, i): Row => (i === 10_000 ? { extra: 'late', run_id: `r${i}` } : i % 2 ? { run_id: `r${i}`, x: i } : { x: i, run_id: `r${i}`, more: 'm' }));
    for (const format of ['csv', 'tsv'] as const) {
      const chunks = [...formatRowChunks(mixed, format)];
      expect(chunks).toHaveLength(2);
      const sep = format === 'csv' ? ',' : '\t';
      expect(chunks[1]?.startsWith(`${sep}r10000${sep}\n`)).toBe(true); // x, run_id, more: not the row's own extra, run_id
      expect(chunks.join('')).toBe(formatRows(mixed, format));
    }
  });

  it('writes every row in every format: Markdown too, which Arquero stops at 100 rows by default', () => {
    const many: Row[] = Array.from({ length: 1234 }, (_, i) => ({ run_id: `r${i}`, x: i }));
    const lines = (format: 'csv' | 'tsv' | 'md' | 'jsonl' | 'json'): string[] => formatRows(many, format).split('\n').filter((l) => l.includes('"r') || /\br\d/.test(l));
    for (const format of ['csv', 'tsv', 'md', 'jsonl', 'json'] as const) expect(lines(format), format).toHaveLength(1234);
    expect(formatRows(many, 'md').trimEnd().split('\n').at(-1)).toBe('|r1233|1233|');
  });

  it('ends CSV with the newline of its last row, not a blank line (a reader would take it for an empty record)', () => {
    const text = formatRows(rows, 'csv');
    expect(text.endsWith('x\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(rows.length + 3); // header, three rows (one holds a quoted newline), the empty rest after the last newline
  });

  it('fills each row as its piece is written', () => {
    const text = [...formatRowChunks([2, 0, 1], 'csv', (i) => rows[i] as Row)].join('');
    expect(text).toBe(formatRows([rows[2], rows[0], rows[1]] as Row[], 'csv'));
  });
});

describe('jsonRowChunks with a filler', () => {
  it('writes each sparse row filled, and lets each row go once written when asked', () => {
    const sparse: Record<string, FieldValue>[] = [{ a: 1 }, { b: 'x' }, { a: Infinity, b: null }];
    const fill = rowFiller(['a', 'b']);
    const taken = [...sparse];
    const text = [...jsonRowChunks(taken, 'jsonl', fill, { take: taken })].join('');
    expect(text).toBe(formatRows(sparse.map(fill), 'jsonl'));
    expect(text.split('\n')[2]).toBe('{"a":"Infinity","b":null}');
    expect(taken.every((r) => Object.keys(r).length === 0)).toBe(true);
  });
});
