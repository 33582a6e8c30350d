import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

const SUITE = path.join(FIXTURES, '_suites/vllm-writeups');

interface ExpectedRun {
  file: string;
  line: number;
  label: string | null;
  completed: number;
  output_throughput: number;
  mean_ttft_ms: number;
  max_concurrency: number;
}

/** The suite was generated with its expectations written down independently of the parser. */
const expected = JSON.parse(readFileSync(`${SUITE}.expected.json`, 'utf8')) as ExpectedRun[];

describe('a folder of write-ups and raw outputs pasting dozens of result blocks', () => {
  const table = runCli(['table', SUITE, '--format', 'json']);
  const rows = JSON.parse(table.stdout) as Record<string, unknown>[];

  it('returns every block as one run, no more', () => {
    expect(rows.map((r) => `${r.source_file}:${r.source_line}`).sort()).toEqual(expected.map((e) => `${e.file}:${e.line}`).sort());
  });

  it.each(expected)('$file:$line has exact values, concurrency and label', (e) => {
    const row = rows.find((r) => r.source_file === e.file && r.source_line === e.line);
    expect(row).toBeDefined();
    expect(row?.completed).toBe(e.completed);
    expect(row?.output_throughput).toBe(e.output_throughput);
    expect(row?.mean_ttft_ms).toBe(Math.round(e.mean_ttft_ms * 100) / 100);
    expect(row?.max_concurrency).toBe(e.max_concurrency);
    expect(row?.label).toBe(e.label);
  });

  it('reports the binary file with file:line on stderr and still exits 0', () => {
    expect(table.stderr).toContain('raw/gpu-trace.bin:1:1: warning ingest/binary-file');
    expect(table.status).toBe(0);
  });

  it('accounts for every file in scan', () => {
    const scan = runCli(['scan', SUITE, '--json']);
    const out = JSON.parse(scan.stdout) as { files: { path: string; status: string; runs: number }[] };
    const byPath = Object.fromEntries(out.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual([
      'notes/README.md',
      'raw/bench-loop.log',
      'raw/gpu-trace.bin',
      'raw/sweep-results.sh',
      'writeups/h100-spec-sweep.md',
      'writeups/tp-comparison.md',
    ]);
    expect(byPath['raw/gpu-trace.bin']?.status).toBe('skipped');
    expect(byPath['notes/README.md']?.status).toBe('unrecognized');
    const runs = out.files.reduce((n, f) => n + f.runs, 0);
    expect(runs).toBe(expected.length);
  });
});
