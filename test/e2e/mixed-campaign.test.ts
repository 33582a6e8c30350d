import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

const SUITE = path.join(FIXTURES, '_suites/mixed-campaign');

type Value = string | number | boolean | null;

interface ExpectedFile {
  status: 'parsed' | 'unrecognized' | 'skipped';
  /** Grammars that must take part in the file (others may claim it and find nothing). */
  formats: string[];
  runs: number;
  configs?: number;
  timeline?: number;
  failed_start?: boolean;
}

interface ExpectedRun extends Record<string, Value> {
  file: string;
  line: number;
  source_format: string;
}

interface ExpectedTimeline extends Record<string, Value> {
  file: string;
  line: number;
}

interface Expected {
  files: Record<string, ExpectedFile>;
  runs: ExpectedRun[];
  timeline: ExpectedTimeline[];
  /** `file:line:col: severity code` of every grammar/ingest warning and error (cross-file linking excluded). */
  diagnostics: string[];
}

interface ScanFile {
  path: string;
  status: string;
  formats: string[];
  runs: number;
  records: number;
}

interface ScanOutput {
  files: ScanFile[];
  failed_configurations: { source_file: string; exception: string }[];
}

type Row = Record<string, Value | Value[]>;

/** Written by hand from the suite's content, independently of the parser. */
const expected = JSON.parse(readFileSync(`${SUITE}.expected.json`, 'utf8')) as Expected;

/** Canonical columns every engine's runs must share (docs/schema.md §1). */
const CANONICAL = [
  'engine', 'client', 'model', 'request_throughput', 'output_throughput', 'total_token_throughput',
  'mean_ttft_ms', 'median_ttft_ms', 'p99_ttft_ms', 'mean_tpot_ms', 'mean_itl_ms', 'mean_e2el_ms',
  'spec_acceptance_length', 'spec_acceptance_rate', 'spec_method',
];

const DIAGNOSTIC = /^(.+?):(\d+):(\d+): (error|warning|info) (\S+)/;

function diagnostics(stderr: string): { where: string; severity: string; code: string }[] {
  return stderr.split('\n').flatMap((l) => {
    const m = DIAGNOSTIC.exec(l);
    return m ? [{ where: `${m[1]}:${m[2]}:${m[3]}`, severity: m[4] ?? '', code: m[5] ?? '' }] : [];
  });
}

describe('a benchmark campaign folder mixing every engine, tool version and artifact', () => {
  const scan = runCli(['scan', SUITE, '--json', '-v']);
  const out = JSON.parse(scan.stdout) as ScanOutput;
  const byPath = new Map(out.files.map((f) => [f.path, f]));
  const table = runCli(['table', SUITE, '--format', 'json']);
  const rows = JSON.parse(table.stdout) as Row[];
  const timeline = runCli(['table', SUITE, '--timeline', '--format', 'json']);
  const series = JSON.parse(timeline.stdout) as Row[];

  it('accounts for every file, and for no other', () => {
    expect([...byPath.keys()].sort()).toEqual(Object.keys(expected.files).sort());
  });

  it.each(Object.entries(expected.files))('%s: status, formats and runs', (file, e) => {
    const f = byPath.get(file);
    expect(f?.status).toBe(e.status);
    for (const format of e.formats) expect(f?.formats).toContain(format);
    if (e.formats.length === 0) expect(f?.formats).toEqual([]);
    expect(f?.runs).toBe(e.runs);
    if (e.configs !== undefined) expect(f?.records).toBe(e.configs);
    if (e.timeline !== undefined) expect(series.filter((r) => r.source_file === file)).toHaveLength(e.timeline);
  });

  it('turns every result block into exactly one run', () => {
    const found = rows.map((r) => `${String(r.source_file)}:${String(r.source_line)}`).sort();
    expect(found).toEqual(expected.runs.map((e) => `${e.file}:${e.line}`).sort());
    const total = Object.values(expected.files).reduce((n, f) => n + f.runs, 0);
    expect(rows).toHaveLength(total);
  });

  it.each(expected.runs)('$file:$line has its exact values', ({ file, line, ...values }) => {
    const row = rows.find((r) => r.source_file === file && r.source_line === line);
    expect(row).toBeDefined();
    for (const [column, value] of Object.entries(values)) expect({ column, value: row?.[column] }).toEqual({ column, value });
  });

  it('gives SGLang and TensorRT-LLM runs the same canonical columns as vLLM runs', () => {
    const engines = ['vllm', 'sglang', 'trtllm'];
    const keys = engines.map((engine) => {
      const row = rows.find((r) => r.engine === engine);
      expect(row, engine).toBeDefined();
      return Object.keys(row ?? {}).sort();
    });
    for (const k of keys) expect(k).toEqual(keys[0]);
    for (const c of CANONICAL) expect(keys[0]).toContain(c);
    // every engine fills the headline metrics somewhere (TensorRT-LLM prints no ITL: not required)
    const filled = (engine: string, column: string) => rows.some((r) => r.engine === engine && typeof r[column] === 'number');
    for (const engine of engines) {
      for (const c of ['output_throughput', 'mean_ttft_ms', 'mean_tpot_ms', 'mean_e2el_ms', 'spec_acceptance_length']) {
        expect({ engine, c, filled: filled(engine, c) }).toEqual({ engine, c, filled: true });
      }
    }
    for (const engine of ['vllm', 'sglang']) expect(filled(engine, 'mean_itl_ms')).toBe(true);
  });

  it('labels and configures each write-up run from its own heading and command', () => {
    const writeup = rows.filter((r) => r.source_file === 'writeup/engine-comparison.md');
    expect(writeup.map((r) => r.label)).toEqual([
      'vLLM baseline',
      'vLLM with FP8 weights',
      'SGLang with the FA3 attention backend',
      'TensorRT-LLM, batch size 32',
      'vLLM + EAGLE-3, k=3',
      'three draft steps, top-1',
    ]);
  });

  it('gives the server series with acceptance per interval', () => {
    for (const e of expected.timeline) {
      const { file, line, ...values } = e;
      const row = series.find((r) => r.source_file === file && r.source_line === line);
      expect(row, `${file}:${line}`).toBeDefined();
      for (const [column, value] of Object.entries(values)) expect({ column, value: row?.[column] }).toEqual({ column, value });
    }
    const withAcceptance = series.filter((r) => typeof r.spec_acceptance_length === 'number');
    expect(new Set(withAcceptance.map((r) => r.engine))).toEqual(new Set(['vllm', 'sglang']));
  });

  it('marks the crashed server start as a failed configuration, with an error', () => {
    expect(out.failed_configurations).toEqual([expect.objectContaining({ source_file: 'sglang/server-oom.log', exception: 'torch.OutOfMemoryError' })]);
    expect(scan.status).toBe(1);
    expect(table.status).toBe(1);
  });

  it('reports exactly the expected parse and ingest problems, and no unrecognized line one by one', () => {
    const all = diagnostics(scan.stderr);
    const problems = all
      .filter((d) => d.severity !== 'info' && !d.code.startsWith('link/') && !d.code.startsWith('config/'))
      .map((d) => `${d.where}: ${d.severity} ${d.code}`);
    expect(problems.sort()).toEqual([...expected.diagnostics].sort());
    const unrecognized = all.filter((d) => d.code === 'parse/unrecognized-lines').map((d) => d.where.replace(/:\d+:\d+$/, ''));
    expect(unrecognized.length).toBe(new Set(unrecognized).size);
    for (const file of ['README.md', 'data/gpu-inventory.csv', 'notes/todo.txt']) {
      expect(all).toContainEqual({ where: `${file}:1:1`, severity: 'info', code: 'detect/unrecognized' });
    }
  });
});
