import { describe, expect, it } from 'vitest';
import { type ProgressStream, progressLine } from '../../../src/cli/reporters/run-progress.js';

function stream(isTTY: boolean): { s: ProgressStream; out: string[] } {
  const out: string[] = [];
  const s: ProgressStream = { isTTY, write: (t: string) => out.push(t) };
  return { s, out };
}

describe('run progress line', () => {
  it('redraws one line on a TTY and ends it when a variant ends', () => {
    const { s, out } = stream(true);
    const show = progressLine(s);
    show({ kind: 'server-start', variant: 'draft-k8', index: 1, total: 3 });
    show({ kind: 'server-ready', variant: 'draft-k8' });
    show({ kind: 'bench-start', variant: 'draft-k8', concurrency: 4, repeat: 1, done: 2, runs: 3 });
    show({ kind: 'variant-end', variant: 'draft-k8', outcome: 'bench-failed', error: 'bench-c4: benchmark exited with 1; see bench-c4.log' });
    expect(out).toEqual([
      '\r\x1b[K[2/3] draft-k8: starting server…',
      '\r\x1b[K[2/3] draft-k8: server ready',
      '\r\x1b[K[2/3] draft-k8: concurrency 4 (3/3)…',
      '\r\x1b[K[2/3] draft-k8: bench-failed (bench-c4: benchmark exited with 1; see bench-c4.log)\n',
    ]);
  });
  it('prints nothing when stderr is not a TTY', () => {
    const { s, out } = stream(false);
    progressLine(s)({ kind: 'server-start', variant: 'nosd', index: 0, total: 1 });
    expect(out).toEqual([]);
  });
});
