import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { FIXTURES } from '../helpers/fixtures.js';

/**
 * Permissions do not stop root (which CI runs as), so the file system refuses here: `locked/` cannot
 * be listed and `secret.log` cannot be opened, as for a user without the rights.
 */
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const refuse = (syscall: string, p: unknown): never => {
    throw Object.assign(new Error(`EACCES: permission denied, ${syscall} '${String(p)}'`), { code: 'EACCES' });
  };
  return {
    ...fs,
    readdirSync: ((p: string, o: never) => (String(p).endsWith(`${path.sep}locked`) ? refuse('scandir', p) : fs.readdirSync(p, o))) as typeof fs.readdirSync,
    openSync: ((p: string, flags: string, mode?: number) => (String(p).endsWith('secret.log') ? refuse('open', p) : fs.openSync(p, flags, mode))) as typeof fs.openSync,
  };
});

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-unreadable-'));
const block = path.join(FIXTURES, 'vllm-bench-serve/basic/input.log');
for (const sub of ['ok', 'locked', 'locked/inner']) mkdirSync(path.join(dir, sub), { recursive: true });
for (const file of ['ok/run.log', 'secret.log', 'locked/hidden.log']) copyFileSync(block, path.join(dir, file));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('what the file system refuses', () => {
  it('reports a folder it cannot list and a file it cannot open, by relative path, and reads the rest', () => {
    const result = scanPaths([dir]);
    expect(result.files.map((f) => [f.path, f.status, f.runs])).toEqual([
      ['ok/run.log', 'parsed', 1],
      ['secret.log', 'skipped', 0],
    ]);
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([
      "locked:1:1: error ingest/unlisted-folder folder could not be listed, its files were not read: EACCES: permission denied, scandir 'locked'",
      "secret.log:1:1: error ingest/unreadable file could not be read: EACCES: permission denied, open 'secret.log'",
    ]);
  });

  it('reports a folder given on the command line that it cannot list', () => {
    const result = scanPaths([path.join(dir, 'locked')]);
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "locked:1:1: error ingest/unlisted-folder folder could not be listed, its files were not read: EACCES: permission denied, scandir 'locked'",
    ]);
  });
});
