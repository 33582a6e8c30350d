import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCorpus } from '../../scripts/bench/corpus.js';
import { POOL_THRESHOLD } from '../../src/pipeline/worker-pool.js';
import { CLI, runCli } from '../helpers/cli.js';

// Large enough for worker threads, with logs large enough to be streamed (> 1 MiB).
const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-threads-'));
const RESULT_FILES = 150;
writeCorpus({ dir, resultFiles: RESULT_FILES, serverLogs: 2, serverLogBytes: 2_500_000 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parsing on worker threads', () => {
  const inThread = runCli(['table', dir, '-f', 'jsonl', '--threads', '1']);

  it('has a folder the pool gives to workers (else the comparisons below would compare one thread with itself)', () => {
    expect(RESULT_FILES + 2).toBeGreaterThanOrEqual(POOL_THRESHOLD.minFiles);
  });

  it('reads the folder (runs and server logs) without errors', () => {
    expect(inThread.status).toBe(0);
    expect(inThread.stdout.trim().split('\n')).toHaveLength(RESULT_FILES);
    expect(inThread.stderr).toContain(`${RESULT_FILES} runs from ${RESULT_FILES + 2} files; 0 errors, 0 warnings`);
  });

  it.each([['default (one thread per core)', []], ['3 threads', ['--threads', '3']]])('%s gives the very table one thread gives', (_name, extra) => {
    const pooled = runCli(['table', dir, '-f', 'jsonl', ...extra]);
    expect(pooled.status).toBe(0);
    expect(pooled.stdout).toBe(inThread.stdout);
    expect(pooled.stderr).toBe(inThread.stderr);
  });

  it('gives the same file list and timeline', () => {
    expect(runCli(['scan', dir, '--json']).stdout).toBe(runCli(['scan', dir, '--json', '--threads', '1']).stdout);
    const timeline = runCli(['table', dir, '--timeline', '-f', 'jsonl']);
    expect(timeline.stdout.trim().split('\n').length).toBeGreaterThan(10);
    expect(timeline.stdout).toBe(runCli(['table', dir, '--timeline', '-f', 'jsonl', '--threads', '1']).stdout);
  });

  it('stops quietly when the reader of its output goes away (`| head`)', () => {
    expect(inThread.stdout.length).toBeGreaterThan(128 * 1024); // twice what a pipe holds (64 KiB): the writer meets the closed pipe
    const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const r = spawnSync('bash', ['-c', `${quote(process.execPath)} ${quote(CLI)} table ${quote(dir)} -f jsonl | head -c 1 > /dev/null; echo "status $\{PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('status 0');
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
  });

  it('refuses a thread count that is not a whole number ≥ 1', () => {
    const r = runCli(['table', dir, '--threads', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--threads/);
  });
});
