import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/sweep/manifest.js';
import { Interrupt } from '../../src/sweep/interrupt.js';
import { parseSweep } from '../../src/sweep/load.js';
import { planSweep } from '../../src/sweep/plan.js';
import { runSweep } from '../../src/sweep/run-sweep.js';
import { runCli } from './cli-helpers.js';
import { alive, cleanUp, fakePids, freePort, sweepYaml, tempDir, useFakeEngine } from './sweep-helpers.js';

let restorePath: () => void;
let dir = '';

beforeAll(() => {
  restorePath = useFakeEngine();
});
afterAll(() => restorePath());
afterEach(() => {
  const survivors = cleanUp(dir);
  delete process.env.FAKE_BENCH_FAIL;
  delete process.env.FAKE_BENCH_PIDFILE;
  expect(survivors).toEqual([]);
});

async function sweep(body: string, options: { resume?: boolean } = {}) {
  dir ||= tempDir();
  const s = parseSweep(sweepYaml(await freePort(), body));
  const results = await runSweep(s, planSweep(s, dir), { resume: options.resume ?? false, interrupt: new Interrupt() });
  return { sweep: s, results };
}

const readIfExists = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const manifest = (variant: string): Manifest => JSON.parse(readFileSync(path.join(dir, variant, 'manifest.json'), 'utf8')) as Manifest;
const THREE = `
variants:
  nosd: {}
  draft-k8: {speculative-config: {method: draft_model, model: acme/tiny-llm-68m, num_speculative_tokens: 8}}
  eagle3-k7: {speculative-config: {method: eagle3, model: acme/tiny-llm-eagle3, num_speculative_tokens: 7}}
concurrency: [1, 2, 4]
timeouts: {startup: 10, benchmark: 15, shutdown_grace: 2}`;

describe('runSweep with the stand-in engine', () => {
  beforeAll(() => {
    dir = '';
  });

  it('runs 3 variants × 3 concurrencies into the documented layout', async () => {
    dir = tempDir();
    const { results } = await sweep(THREE);
    expect(results.map((r) => [r.variant, r.outcome, r.error])).toEqual([
      ['nosd', 'ok', null],
      ['draft-k8', 'ok', null],
      ['eagle3-k7', 'ok', null],
    ]);
    for (const v of ['nosd', 'draft-k8', 'eagle3-k7']) {
      expect(readdirSync(path.join(dir, v)).sort()).toEqual([
        'bench-c1.json', 'bench-c1.log', 'bench-c2.json', 'bench-c2.log', 'bench-c4.json', 'bench-c4.log', 'manifest.json', 'serve.log',
      ]);
      expect(readFileSync(path.join(dir, v, 'serve.log'), 'utf8')).toContain('Application startup complete.');
      expect(readFileSync(path.join(dir, v, 'bench-c4.log'), 'utf8')).toContain('Maximum request concurrency:             4');
    }
    const m = manifest('draft-k8');
    expect(m.outcome).toBe('ok');
    expect(m.engine_version).toBe('0.11.0');
    expect(m.gpus).toEqual([]);
    expect(m.env).toEqual({});
    expect(m.config).toEqual({
      dataset: 'random', draft_model: 'acme/tiny-llm-68m', engine: 'vllm', input_len: 256, label: 'draft-k8', model: 'acme/tiny-llm-1b',
      num_spec_tokens: 8, output_len: 64, spec_method: 'draft_model', temperature: 0, tp: 1,
    });
    expect(m.server_command.slice(0, 7)).toEqual(['vllm', 'serve', 'acme/tiny-llm-1b', '--host', '127.0.0.1', '--port', m.server_command[6]]);
    expect(m.runs.map((r) => [r.concurrency, r.outcome, r.log, r.result])).toEqual([
      [1, 'ok', 'bench-c1.log', 'bench-c1.json'],
      [2, 'ok', 'bench-c2.log', 'bench-c2.json'],
      [4, 'ok', 'bench-c4.log', 'bench-c4.json'],
    ]);
    const c4 = m.runs[2]?.command ?? [];
    expect(c4.slice(c4.indexOf('--max-concurrency'), c4.indexOf('--max-concurrency') + 6)).toEqual(['--max-concurrency', '4', '--num-prompts', '8', '--request-rate', '4']);
    expect(manifest('nosd').config.spec_method).toBe('none');
    expect(manifest('eagle3-k7').config).toMatchObject({ spec_method: 'eagle3', num_spec_tokens: 7 });
    expect(fakePids(dir).filter(alive)).toEqual([]);
    await roundTrip();
  }, 90_000);

  it('records a crash at start-up, keeps the log and goes on with the next variant', async () => {
    dir = tempDir();
    const { results } = await sweep(`
variants:
  broken: {fake-mode: crash}
  nosd: {}
concurrency: [1]
timeouts: {startup: 10, benchmark: 15, shutdown_grace: 2}`);
    expect(results.map((r) => [r.variant, r.outcome])).toEqual([['broken', 'server-crashed'], ['nosd', 'ok']]);
    const m = manifest('broken');
    expect(m.outcome).toBe('server-crashed');
    expect(m.error).toBe('server exited with 1 before it was ready; see serve.log');
    expect(m.runs).toEqual([]);
    expect(m.engine_version).toBe('0.11.0');
    expect(readFileSync(path.join(dir, 'broken', 'serve.log'), 'utf8')).toContain('torch.OutOfMemoryError: CUDA out of memory.');
    expect(existsSync(path.join(dir, 'nosd', 'bench-c1.json'))).toBe(true);
  });

  it('records a server executable that does not exist as a crash', async () => {
    dir = tempDir();
    const { results } = await sweep(`
variants:
  nosd: {}
concurrency: [1]
timeouts: {startup: 5, benchmark: 15, shutdown_grace: 1}`.replace('variants:', 'executables: {server: benchlens-no-such-engine}\nvariants:'));
    expect(results.map((r) => [r.outcome, r.error])).toEqual([['server-crashed', 'server exited with spawn error: spawn benchlens-no-such-engine ENOENT before it was ready; see serve.log']]);
    expect(readFileSync(path.join(dir, 'nosd', 'serve.log'), 'utf8')).toBe('benchlens: could not start "benchlens-no-such-engine": spawn benchlens-no-such-engine ENOENT\n');
  });

  it('gives up on a server that never becomes ready', async () => {
    dir = tempDir();
    const started = Date.now();
    const { results } = await sweep(`
variants:
  stuck: {fake-mode: hang}
concurrency: [1]
timeouts: {startup: 1.5, benchmark: 15, shutdown_grace: 1}`);
    expect(results.map((r) => [r.variant, r.outcome, r.error])).toEqual([['stuck', 'server-timeout', 'server not ready within 1.5 s; see serve.log']]);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(readFileSync(path.join(dir, 'stuck', 'serve.log'), 'utf8')).toContain('Loading model from scratch...');
  });

  it('an interrupt while the server starts stops it and records the variant as interrupted', async () => {
    dir = tempDir();
    const s = parseSweep(sweepYaml(await freePort(), 'variants: {stuck: {fake-mode: hang}, never: {}}\ntimeouts: {startup: 20, shutdown_grace: 1}'));
    const interrupt = new Interrupt();
    const started = Date.now();
    const running = runSweep(s, planSweep(s, dir), { resume: false, interrupt });
    for (let i = 0; i < 100 && !readIfExists(path.join(dir, 'stuck', 'serve.log')).includes('Loading model'); i++) await new Promise((r) => setTimeout(r, 100));
    interrupt.trigger();
    const results = await running;
    expect(results.map((r) => [r.variant, r.outcome, r.error])).toEqual([['stuck', 'interrupted', 'interrupted before the server was ready']]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(existsSync(path.join(dir, 'never'))).toBe(false);
    expect(fakePids(dir).filter(alive)).toEqual([]);
  });

  it('kills a server that ignores SIGTERM after the grace period', async () => {
    dir = tempDir();
    const { results } = await sweep(`
variants:
  stubborn: {fake-ignore-sigterm: true}
concurrency: [1]
timeouts: {startup: 10, benchmark: 15, shutdown_grace: 1}`);
    expect(results.map((r) => r.outcome)).toEqual(['ok']);
    expect(readFileSync(path.join(dir, 'stubborn', 'serve.log'), 'utf8')).toContain('SIGTERM ignored (fake)');
    expect(fakePids(dir).filter(alive)).toEqual([]);
  });

  it('records a failing benchmark and runs the remaining concurrencies', async () => {
    dir = tempDir();
    process.env.FAKE_BENCH_FAIL = 'nosd:1';
    const { results } = await sweep(`
variants:
  nosd: {}
concurrency: [1, 2]
timeouts: {startup: 10, benchmark: 15, shutdown_grace: 2}`);
    expect(results.map((r) => [r.outcome, r.error])).toEqual([['bench-failed', 'bench-c1: benchmark exited with 1; see bench-c1.log']]);
    const m = manifest('nosd');
    expect(m.runs.map((r) => [r.concurrency, r.outcome, r.exit_status])).toEqual([[1, 'bench-failed', 1], [2, 'ok', 0]]);
    expect(readFileSync(path.join(dir, 'nosd', 'bench-c1.log'), 'utf8')).toContain('ValueError: Initial test run failed');
    expect(existsSync(path.join(dir, 'nosd', 'bench-c1.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'nosd', 'bench-c2.json'))).toBe(true);
  });

  it('--resume runs only what has no result yet', async () => {
    dir = tempDir();
    const body = `
variants:
  nosd: {}
  draft-k8: {speculative-config: {method: draft_model, model: acme/tiny-llm-68m, num_speculative_tokens: 8}}
concurrency: [1, 2]
timeouts: {startup: 10, benchmark: 15, shutdown_grace: 2}`;
    await sweep(body);
    rmSync(path.join(dir, 'draft-k8', 'bench-c2.json'));
    const nosdManifest = statSync(path.join(dir, 'nosd', 'manifest.json')).mtimeMs;
    process.env.FAKE_BENCH_PIDFILE = path.join(dir, 'bench-pids.txt');
    const { results } = await sweep(body, { resume: true });
    expect(results.map((r) => [r.variant, r.outcome, r.skipped])).toEqual([['nosd', 'ok', true], ['draft-k8', 'ok', false]]);
    expect(readFileSync(path.join(dir, 'bench-pids.txt'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(statSync(path.join(dir, 'nosd', 'manifest.json')).mtimeMs).toBe(nosdManifest);
    expect(manifest('draft-k8').runs.map((r) => [r.concurrency, r.outcome])).toEqual([[1, 'skipped'], [2, 'ok']]);
    expect(existsSync(path.join(dir, 'draft-k8', 'bench-c2.json'))).toBe(true);
  });
});

interface ScanFile {
  readonly path: string;
  readonly status: string;
  readonly formats: readonly string[];
}

/**
 * The round trip with no flags: `benchlens scan DIR` accounts for every file, `benchlens table DIR`
 * yields every run with its configuration from the manifests (config inference, issue 4), and
 * `benchlens compare DIR --baseline label=nosd` pairs each speculative run with its baseline.
 */
async function roundTrip(): Promise<void> {
  const [scan, table, compare] = await Promise.all([
    runCli(['scan', dir, '--json']),
    runCli(['table', dir, '--format', 'json']),
    runCli(['compare', dir, '--baseline', 'label=nosd', '--format', 'json']),
  ]);
  expect(scan.code).toBe(0);
  const files = (JSON.parse(scan.stdout) as { files: ScanFile[] }).files;
  const variants = ['draft-k8', 'eagle3-k7', 'nosd'];
  const names = ['bench-c1.json', 'bench-c1.log', 'bench-c2.json', 'bench-c2.log', 'bench-c4.json', 'bench-c4.log', 'manifest.json', 'serve.log'];
  expect(files.map((f) => f.path)).toEqual(variants.flatMap((v) => names.map((n) => `${v}/${n}`)));
  for (const f of files) {
    const expected = f.path.endsWith('manifest.json') ? 'benchlens-manifest' : f.path.endsWith('.json') ? 'vllm-bench-result-json' : f.path.endsWith('.log') && !f.path.endsWith('serve.log') ? 'vllm-bench-serve' : null;
    if (expected) expect([f.path, f.status, f.formats]).toEqual([f.path, 'parsed', [expected]]);
  }
  expect(table.code).toBe(0);
  expect(table.stderr).toMatch(/; 0 errors, 0 warnings/);
  const rows = JSON.parse(table.stdout) as Record<string, unknown>[];
  const spec: Record<string, [string, number | null]> = { nosd: ['none', null], 'draft-k8': ['draft_model', 8], 'eagle3-k7': ['eagle3', 7] };
  const got = rows.map((row) => [row.source_file, row.label, row.spec_method, row.num_spec_tokens, row.max_concurrency, row.engine, row.engine_version]);
  const want = variants.flatMap((v) =>
    // the stdout block and the result JSON of one run count once (the JSON is kept)
    names.filter((n) => n.startsWith('bench') && n.endsWith('.json')).map((n) => [`${v}/${n}`, v, spec[v]?.[0], spec[v]?.[1], Number(/c(\d+)/.exec(n)?.[1]), 'vllm', '0.11.0']),
  );
  expect(got).toEqual(want);
  expect(compare.code).toBe(0);
  const pairs = JSON.parse(compare.stdout) as Record<string, unknown>[];
  expect(pairs).toHaveLength(6);
  for (const p of pairs) {
    const file = String(p.source_file);
    expect([file, p.pair_status, p.baseline_source_file]).toEqual([file, 'ok', `nosd/${file.split('/')[1] ?? ''}`]);
    expect(Number(p.speedup_output_throughput)).toBeGreaterThan(file.startsWith('eagle3') ? 1.7 : 1.3);
  }
}
