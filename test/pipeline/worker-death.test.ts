import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

// Workers run compiled JavaScript only, so this drives the built pool (npm test builds first) in a
// process of its own, with a worker script that dies on its first batch or stays silent and exits.
const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-worker-death-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'utf8');
const FILES = 120;
for (let i = 0; i < FILES; i++) writeFileSync(path.join(dir, `run-${String(i).padStart(3, '0')}.log`), block.replace('Maximum request concurrency:', `Maximum request concurrency: ${i + 1} #`));

const WORKERS = {
  throws: "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => { throw new Error('boom'); });",
  exits: "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => process.exit(3));",
};

function scanWith(worker: keyof typeof WORKERS): { files: number; runs: number; order: boolean } {
  const script = path.join(dir, `${worker}.mjs`);
  writeFileSync(script, WORKERS[worker]);
  const program = `
    import { pathToFileURL } from 'node:url';
    import { discover } from ${JSON.stringify(pathToUrl('dist/src/ingest/discover.js'))};
    import { DiagnosticCollector } from ${JSON.stringify(pathToUrl('dist/src/core/diagnostic.js'))};
    import { processAll } from ${JSON.stringify(pathToUrl('dist/src/pipeline/worker-pool.js'))};
    const found = discover([${JSON.stringify(dir)}], { include: ['*.log'] }, new DiagnosticCollector());
    const outcomes = await processAll(found.files, undefined, 2, pathToFileURL(${JSON.stringify(script)}));
    const runs = outcomes.reduce((n, o) => n + o.report.runs, 0);
    const order = outcomes.every((o, i) => o.report.path === found.files[i].rel);
    console.log(JSON.stringify({ files: outcomes.length, runs, order }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { files: number; runs: number; order: boolean };
}

function pathToUrl(rel: string): string {
  return new URL(`file://${path.join(ROOT, rel)}`).href;
}

describe('a worker that dies', () => {
  it.each(Object.keys(WORKERS) as (keyof typeof WORKERS)[])('(%s) costs no file: this thread reads its batches again', (worker) => {
    expect(scanWith(worker)).toEqual({ files: FILES, runs: FILES, order: true });
  });
});
