import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Vitest global setup: every temporary folder a test makes (its own, and those of the CLI
 * processes it starts) goes under one folder removed when the run ends. A test file that makes
 * its folder at import and removes it in `afterAll` would otherwise leave it behind when `-t`
 * filters out all its tests (vitest then skips the hook), or when a run is interrupted.
 */
export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'benchlens-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
