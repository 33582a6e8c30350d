import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { seriesEntries } from '../../src/core/timeline-series.js';
import { asRelPath } from '../../src/core/types.js';
import { fillColumns, toRunRows } from '../../src/normalize/runs-table.js';
import { formatRowChunks, formatRows } from '../../src/output/table-format.js';
import { grammar as sglangServer } from '../../grammars/sglang-server/index.js';
import { grammar as vllmResult } from '../../grammars/vllm-bench-result-json/index.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';

/** Names every object inherits: a log may use them as keys (`--metadata`, a flag, a stats label). */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('keys a log names like properties of every object', () => {
  it('are kept as columns, with their values, from a result JSON to CSV, Markdown and JSON Lines', () => {
    const doc = Object.fromEntries([['model_id', 'm'], ['max_concurrency', 4], ['completed', 10], ...INHERITED.map((k, i) => [k, `v${i}`])]);
    const text = `{${Object.entries(doc).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
    const records = vllmResult.parse({ path: asRelPath('r.json'), lines: [text] }, new DiagnosticCollector());
    expect(records).toHaveLength(1);
    const run = records[0];
    if (run?.kind !== 'run') throw new Error('no run');
    expect(Object.getPrototypeOf(run.fields)).toBe(Object.prototype);
    expect(Object.hasOwn(run.fields, 'undefined')).toBe(false);
    for (const [i, k] of INHERITED.entries()) expect([k, Object.hasOwn(run.fields, k) ? run.fields[k] : 'missing']).toEqual([k, `v${i}`]);
    // a second run without those keys: its cells stay empty, never what every object inherits
    const plain = vllmResult.parse({ path: asRelPath('s.json'), lines: ['{"model_id":"m","max_concurrency":8,"completed":10}'] }, new DiagnosticCollector());
    const rows = fillColumns(toRunRows([run, ...plain].map((record) => ({ format: 'vllm-bench-result-json', record })) as ParsedRecord[]));
    expect(rows).toHaveLength(2);
    for (const k of INHERITED) expect([k, rows[1]?.[k]]).toEqual([k, null]);
    const jsonl = JSON.parse(formatRows(rows, 'jsonl').split('\n')[0] ?? '') as Record<string, unknown>;
    for (const [i, k] of INHERITED.entries()) expect(Object.hasOwn(jsonl, k) && jsonl[k]).toBe(`v${i}`);
    for (const format of ['csv', 'tsv'] as const) {
      const [header, values, other] = formatRows(rows, format).replace(/\n$/, '').split('\n').map((l) => l.split(format === 'csv' ? ',' : '\t'));
      for (const [i, k] of INHERITED.entries()) expect(values?.[header?.indexOf(k) ?? -1]).toBe(`v${i}`);
      for (const k of INHERITED) expect(other?.[header?.indexOf(k) ?? -1]).toBe('');
      expect(header).not.toContain('undefined');
      expect([...formatRowChunks(rows, format)].join('')).toBe(formatRows(rows, format));
    }
    const md = formatRows(rows, 'md').split('\n');
    const mdHeader = md[0]?.split('|') ?? [];
    for (const [i, k] of INHERITED.entries()) expect(md[2]?.split('|')[mdHeader.indexOf(k)]).toBe(`v${i}`);
  });

  it('are kept as timeline columns from a server log', () => {
    const line = '[2026-01-02 03:04:05 TP0] Decode batch, #running-req: 4, constructor: 7, toString: 8, __proto__: 9';
    const records = sglangServer.parse({ path: asRelPath('s.log'), lines: [line] }, new DiagnosticCollector());
    const entries = records.flatMap((r) => (r.kind === 'timeline' ? seriesEntries(r.series, r.at.file) : []));
    expect(entries).toHaveLength(1);
    const fields = entries[0]?.fields ?? {};
    expect(JSON.stringify(fields)).toContain('"running":4,"constructor":7,"tostring":8');
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });
});
