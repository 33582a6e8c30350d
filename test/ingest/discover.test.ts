import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { discover } from '../../src/ingest/discover.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-discover-'));
mkdirSync(path.join(dir, 'a/b'), { recursive: true });
mkdirSync(path.join(dir, '.git'));
mkdirSync(path.join(dir, 'node_modules/x'), { recursive: true });
writeFileSync(path.join(dir, 'a/b/run 1.log'), 'x');
writeFileSync(path.join(dir, 'a/z.md'), 'x');
writeFileSync(path.join(dir, '.git/HEAD'), 'x');
writeFileSync(path.join(dir, 'node_modules/x/i.js'), 'x');
symlinkSync(path.join(dir, 'a'), path.join(dir, 'a/b/loop'));
symlinkSync(path.join(dir, 'missing'), path.join(dir, 'dangling'));
execFileSync('mkfifo', [path.join(dir, 'pipe')]);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('discover', () => {
  const sink = new DiagnosticCollector();
  const found = discover([dir], {}, sink);

  it('lists files sorted, relative, skipping .git and node_modules, without following folder links', () => {
    expect(found.files.map((f) => f.rel)).toEqual(['a/b/loop', 'a/b/run 1.log', 'a/z.md', 'dangling', 'pipe']);
    expect(found.files.filter((f) => f.regular).map((f) => f.rel)).toEqual(['a/b/run 1.log', 'a/z.md']);
  });

  it('reports every entry it will not read', () => {
    expect(sink.list().map((d) => `${d.file} ${d.message}`)).toEqual([
      'a/b/loop skipped: not a regular file (symlink to a folder)',
      'dangling skipped: not a regular file (broken symlink)',
      'pipe skipped: not a regular file (fifo)',
    ]);
  });

  it('honours include and exclude globs', () => {
    const only = discover([dir], { include: ['**/*.log'], exclude: ['**/b/**'] }, new DiagnosticCollector());
    expect(only.files).toEqual([]);
  });

  it('gives every file one path relative to the common root, however it was named', () => {
    const nested = discover([path.join(dir, 'a'), path.join(dir, 'a/b'), path.join(dir, 'a/z.md')], {}, new DiagnosticCollector());
    expect(nested.files.filter((f) => f.regular).map((f) => [f.rel, f.abs])).toEqual([
      ['b/run 1.log', path.join(dir, 'a/b/run 1.log')],
      ['z.md', path.join(dir, 'a/z.md')],
    ]);
    const reachingOut = discover([path.join(dir, 'a/b')], { include: ['../*.md'] }, new DiagnosticCollector());
    expect(reachingOut.files.map((f) => [f.rel, f.abs])).toEqual([['../z.md', path.join(dir, 'a/z.md')]]);
  });
});
