import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

const basic = path.join(FIXTURES, 'vllm-bench-serve/basic');

describe('benchlens command line (built binary)', () => {
  it('explains itself', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('scan');
    expect(r.stdout).toContain('table');
    expect(r.stdout).toContain('Examples:');
  });

  it('prints the package version, with or without the commands loaded', () => {
    const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = runCli([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('scan prints one line per file with its format and runs', () => {
    const r = runCli(['scan', basic]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^input\.log\s+vllm-bench-serve\s+1 run\s+0E 0W 0I$/m);
    expect(r.stderr).toContain('benchlens: 3 files');
  });

  it("scan says how many of the runs it found are copies of others, and the table's count", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scan-copies-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // a grep summary and a tail summary of the same three logs: six runs in the files, three runs
    for (const name of ['grep-context-summary', 'tail-summary']) writeFileSync(path.join(dir, `${name}.txt`), readFileSync(path.join(FIXTURES, 'vllm-bench-serve', name, 'input.txt')));
    const text = runCli(['scan', dir]);
    expect(text.stderr).toContain('6 runs (3 in the table: 3 copies merged), 0 failed configurations');
    const json = JSON.parse(runCli(['scan', dir, '--json']).stdout) as { totals: { runs: number; table_runs: number } };
    expect(json.totals).toMatchObject({ runs: 6, table_runs: 3 });
  });

  it('counts in the singular when there is one (1 run from 1 file, 1 error)', () => {
    const r = runCli(['table', path.join(basic, 'input.log')]);
    expect(r.stderr).toMatch(/^benchlens: 1 run from 1 file; 0 errors, 0 warnings$/m);
  });

  it('table writes canonical columns as CSV by default, data on stdout only', () => {
    const r = runCli(['table', path.join(basic, 'input.log')]);
    expect(r.status).toBe(0);
    const [header, row] = r.stdout.trim().split('\n');
    expect(header?.startsWith('run_id,source_file,source_line,source_format,label,config_sources,engine')).toBe(true);
    expect(row).toContain('input.log,9,vllm-bench-serve');
    expect(r.stderr).not.toContain('input.log,9');
  });

  it.each(['csv', 'tsv', 'json', 'jsonl', 'md'])('table --format %s', (format) => {
    const r = runCli(['table', path.join(basic, 'input.log'), '--format', format]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Qwen/Qwen3-8B');
  });

  it('rejects an unknown format with exit code 2', () => {
    const r = runCli(['table', basic, '--format', 'xml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown --format "xml"');
  });

  it('rejects an unknown command with exit code 2', () => {
    expect(runCli(['frobnicate']).status).toBe(2);
  });

  it('exits 1 with a file:line diagnostic when a path does not exist', () => {
    const r = runCli(['table', 'no/such/folder']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('folder:1:1: error ingest/no-files no files matched "no/such/folder"');
  });

  it('exits 2 naming the output it cannot write, never hanging or printing a stack', () => {
    const block = path.join(FIXTURES, 'vllm-bench-serve/basic');
    const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-out-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    // a folder under a file; a folder under /proc, where Node's recursive mkdir never returns
    for (const [out, reason] of [[path.join(file, 'runs.csv'), 'ENOTDIR'], ['/proc/benchlens-nope/runs.csv', 'ENOENT']] as const) {
      const r = runCli(['table', block, '-o', out]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(new RegExp(`^benchlens: cannot write ${out.replaceAll('/', '\\/')}: ${reason}: [^\n]*$`));
    }
    const report = runCli(['report', block, '-o', file]);
    expect(report.status).toBe(2);
    expect(report.stderr).toContain(`benchlens: cannot write ${file}/`);
    expect(report.stderr).not.toContain('internal error');
  });

  it('prints warnings as file:line:col: severity code message', () => {
    const r = runCli(['table', path.join(FIXTURES, 'vllm-bench-serve/warn-truncated-block')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('input.txt:13:1: warning block/truncated');
  });

  it('is deterministic: the same input gives byte-identical output', () => {
    const a = runCli(['table', path.join(FIXTURES, 'vllm-bench-serve'), '--format', 'json']);
    const b = runCli(['table', path.join(FIXTURES, 'vllm-bench-serve'), '--format', 'json']);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toContain(FIXTURES);
  });
});
