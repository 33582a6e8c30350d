import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The stand-in `vllm` (serve + bench serve) used instead of a GPU engine. */
export const FAKE_ENGINE = path.resolve(import.meta.dirname, 'fake-engine');

/** Puts the fake engine first on PATH for this process and the children it spawns. */
export function useFakeEngine(): () => void {
  const before = process.env.PATH ?? '';
  process.env.PATH = `${FAKE_ENGINE}${path.delimiter}${before}`;
  return () => {
    process.env.PATH = before;
  };
}

export function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'benchlens-sweep-'));
}

/** A port nothing listens on right now (127.0.0.1 only). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Every pid the fake engine printed into serve.log files under `dir` (API server + engine core). */
export function fakePids(dir: string): number[] {
  const pids = new Set<number>();
  const visit = (d: string): void => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name === 'serve.log' || e.name === 'bench-pids.txt') {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/pid=(\d+)\)/g)) pids.add(Number(m[1]));
        if (e.name === 'bench-pids.txt') for (const l of text.split('\n')) if (/^\d+$/.test(l)) pids.add(Number(l));
      }
    }
  };
  visit(dir);
  return [...pids];
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** afterEach safety net: kills anything the fake engine left behind, then removes the folder. */
export function cleanUp(dir: string): number[] {
  const survivors = fakePids(dir).filter(alive);
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return survivors;
}

/** A sweep file body for the fake engine with short timeouts. */
export function sweepYaml(port: number, body: string): string {
  return [
    'engine: vllm',
    'model: acme/tiny-llm-1b',
    `port: ${port}`,
    'bench_args: {dataset-name: random, random-input-len: 256, random-output-len: 64, temperature: 0}',
    'num_prompts: max(5, 2 * concurrency)',
    'request_rate: concurrency',
    body,
  ].join('\n');
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `benchlens <args>` from the sources (tsx), with a hard time limit. */
export function cliArgs(args: readonly string[]): { command: string; args: string[]; cwd: string } {
  return { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], cwd: ROOT };
}
