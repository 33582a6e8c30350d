import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POOL_THRESHOLD } from '../../src/pipeline/worker-pool.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-large-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A vLLM `--save-result` object (keys in the tool's order), per-request arrays as given. */
function result(concurrency: number, detail: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    date: '20260101-000000', backend: 'vllm', model_id: 'org/model-8b', tokenizer_id: 'org/model-8b', num_prompts: 40, request_rate: 'inf',
    burstiness: 1, max_concurrency: concurrency, duration: 12.5 + concurrency / 64, completed: 40, failed: 0, total_input_tokens: 40960, total_output_tokens: 10240,
    request_throughput: 3.2, output_throughput: 819.2, total_token_throughput: 4096, ...detail, mean_ttft_ms: 41.5, p99_ttft_ms: 90.25,
  };
}

// Enough small files for the scan to use worker threads.
const SMALL = POOL_THRESHOLD.minFiles;
for (let i = 0; i < SMALL; i++) writeFileSync(path.join(dir, `small-${String(i).padStart(3, '0')}.json`), JSON.stringify(result(i + 1)));
// `--save-detailed`: one line of several megabytes, Python's NaN among the inter-token latencies
const itls = Array.from({ length: 1000 }, (_, r) => Array.from({ length: 255 }, (__, k) => ((r * 255 + k) % 97) / 1000 + 0.0123));
writeFileSync(path.join(dir, 'detailed.json'), JSON.stringify(result(512, { itls, ttfts: itls.map((l) => l[0]) })).replace('[0.0123,', '[NaN,'));
// the same result pretty-printed, as a harness that re-indents results writes it
writeFileSync(path.join(dir, 'pretty.json'), `${JSON.stringify(result(1024, { itls }), null, 2)}\n`);

describe('large result JSON', () => {
  it('gives the run of a several-megabyte one-line result and of a pretty-printed one', () => {
    const r = runCli(['table', dir, '-f', 'jsonl']);
    expect(r.stderr).toContain(`${SMALL + 2} runs from ${SMALL + 2} files; 0 errors, 0 warnings`);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const pick = (file: string) => rows.find((row) => row.source_file === file);
    expect(pick('detailed.json')).toMatchObject({ source_line: 1, max_concurrency: 512, mean_ttft_ms: 41.5, completed: 40 });
    expect(pick('pretty.json')).toMatchObject({ source_line: 1, max_concurrency: 1024, p99_ttft_ms: 90.25 });
  });

  it("reads a file too large for a worker's heap in the main thread (a worker would take the process down)", () => {
    // above a worker's heap (128 MB) on its own: a result with a string of 150 MB (a string is
    // never skimmed, unlike the per-request arrays: the file has to be read whole)
    const fd = openSync(path.join(dir, 'huge.json'), 'w');
    const head = JSON.stringify(result(2048, { tokenizer_id: '@' })).split('"@"');
    writeSync(fd, `${head[0]}"`);
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 150; i++) writeSync(fd, chunk);
    writeSync(fd, `"${head[1]}`);
    closeSync(fd);
    const r = runCli(['table', dir, '-f', 'jsonl']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`${SMALL + 3} runs from ${SMALL + 3} files; 0 errors, 0 warnings`);
    expect(r.stdout).toContain('"source_file":"huge.json"');
  });
});
