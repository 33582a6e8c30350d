import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/sweep/manifest.js';
import { alive, cleanUp, cliArgs, FAKE_ENGINE, fakePids, freePort, sweepYaml, tempDir } from './sweep-helpers.js';

let dir = '';
let benchlens: ChildProcess | null = null;

afterEach(() => {
  if (benchlens && benchlens.exitCode === null && benchlens.signalCode === null) benchlens.kill('SIGKILL');
  benchlens = null;
  expect(cleanUp(dir)).toEqual([]);
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const PATH = `${FAKE_ENGINE}${path.delimiter}${process.env.PATH ?? ''}`;

async function writeSweep(body: string): Promise<string> {
  dir = tempDir();
  const file = path.join(dir, 'sweep.yaml');
  writeFileSync(file, sweepYaml(await freePort(), body));
  return file;
}

const TWO = `
variants:
  nosd: {}
  eagle3-k7: {speculative-config: {method: eagle3, model: acme/tiny-llm-eagle3, num_speculative_tokens: 7}}
concurrency: [1, 2]
timeouts: {startup: 10, benchmark: 60, shutdown_grace: 2}`;

describe('benchlens run (CLI)', () => {
  it('Ctrl-C stops the server and the benchmark it started and leaves no orphan', async () => {
    const file = await writeSweep(TWO);
    const out = path.join(dir, 'out');
    const pidFile = path.join(out, 'bench-pids.txt');
    const c = cliArgs(['run', file, '--out', out]);
    const env = { ...process.env, PATH, FAKE_BENCH_SLEEP_MS: '30000', FAKE_BENCH_PIDFILE: pidFile };
    const child = spawn(c.command, c.args, { cwd: c.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    benchlens = child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    for (let i = 0; i < 450 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes('\n')); i++) await sleep(100);
    const before = fakePids(out);
    expect(before.length).toBe(3); // API server, engine core, bench
    expect(before.every(alive)).toBe(true);
    child.kill('SIGINT');
    const code = await Promise.race([closed, sleep(20_000).then(() => 'hung')]);
    expect(code).toBe(1);
    expect(fakePids(out).filter(alive)).toEqual([]);
    const m = JSON.parse(readFileSync(path.join(out, 'nosd', 'manifest.json'), 'utf8')) as Manifest;
    expect([m.outcome, m.error]).toEqual(['interrupted', 'interrupted during a benchmark']);
    expect(m.runs.map((r) => [r.concurrency, r.outcome])).toEqual([[1, 'interrupted']]);
    expect(readdirSync(out).sort()).toEqual(['bench-pids.txt', 'nosd']);
    expect(stderr).toContain('nosd/manifest.json:1:1: error sweep/variant-failed variant "nosd" ended interrupted: interrupted during a benchmark');
  }, 90_000);
});
