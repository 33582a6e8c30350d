import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromBytes } from '../../../src/ingest/read.js';
import { parseSource } from '../../../src/pipeline/process-file.js';

describe("a pandas summary CSV with a server's line tee'd before its header or among its rows", () => {
  const read = (t: string, name: string) => {
    const sink = new DiagnosticCollector();
    const source = fromBytes(Buffer.from(t), asRelPath(name), sink);
    const records = source ? parseSource(source, sink).records : [];
    return { runs: records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields] : [])), codes: sink.list().map((d) => `${d.line} ${d.code}`) };
  };
  const server = '[TensorRT-LLM][INFO] Number of tokens per block: 32.';
  it.each(['vllm-bench-startup/layout-2026-sweep-summary-csv', 'vllm-bench-sweep/summary-csv'])('keeps its runs, the line counted (%s)', (fixture) => {
    const lines = readFileSync(new URL(`../../../fixtures/${fixture}/input.csv`, import.meta.url), 'utf8').split('\n');
    const whole = read(lines.join('\n'), 'summary.csv');
    expect(whole.runs.length).toBeGreaterThan(1);
    const first = read([server, ...lines].join('\n'), 'summary.csv');
    expect(first.runs).toEqual(whole.runs);
    expect(first.codes).toContain('1 block/interleaved-line');
    const among = read([...lines.slice(0, 2), server, ...lines.slice(2)].join('\n'), 'summary.csv');
    expect(among.runs).toEqual(whole.runs);
    expect(among.codes).toContain('3 block/interleaved-line');
  });
});
