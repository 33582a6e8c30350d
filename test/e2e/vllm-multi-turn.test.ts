import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { compareRuns } from '../../src/analyze/compare.js';
import { parseFilter } from '../../src/analyze/filter.js';
import { buildFigures } from '../../src/report/figures.js';
import { loadTables } from '../../src/report/tables.js';
import { FIXTURES } from '../helpers/fixtures.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-multi-turn-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CONSOLE = path.join(FIXTURES, 'vllm-bench-serve/layout-2026-rust-multi-turn/input.txt');
const RESULT = path.join(FIXTURES, 'vllm-bench-result-json/layout-2026-rust-multi-turn/input.json');

/** The Rust client's printed block, without the speculative-decoding section the saved fixture lacks. */
function printedWithoutSpec(): string {
  const lines = readFileSync(CONSOLE, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.includes('Speculative Decoding'));
  return [...lines.slice(0, from), ...lines.slice(lines.length - 2)].join('\n');
}

describe("the Rust vllm-bench's multi-turn runs", () => {
  it('counts a printed run and its saved result once, with the per-turn lists both give', () => {
    const dir = path.join(tmp, 'tee');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'bench.log'), printedWithoutSpec());
    copyFileSync(RESULT, path.join(dir, 'result.json'));
    const sink = new DiagnosticCollector();
    const { rows, configColumns } = buildRuns(scanPaths([dir]).records.slice(), sink);
    expect(rows.map((r) => [r.source_file, r.max_concurrency, r.multi_turn, r.completed, r.turns_per_conversation, r.per_turn_mean_ttft_ms])).toEqual([
      ['result.json', 8, true, 48, 3, [70.2, 88.5, 106.5]],
    ]);
    expect(sink.list().map((d) => d.code)).toContain('normalize/duplicate-run');
    expect(configColumns).toContain('multi_turn');
  });

  it('never pairs a multi-turn run with a single-turn one at the same load', () => {
    const dir = path.join(tmp, 'mixed');
    mkdirSync(dir);
    const multi = JSON.parse(readFileSync(RESULT, 'utf8')) as Record<string, unknown>;
    // the same client, one model, one concurrency: a single-turn run and a multi-turn one, each without and
    // with speculation (no request rate: the multi-turn result has none, and only its shape sets it apart)
    const single = { date: '20260914-100001', backend: 'openai-chat', model_id: multi.model_id, max_concurrency: 8, duration: 20.1, completed: 48, failed: 0, total_input_tokens: 49152, total_output_tokens: 12288, request_throughput: 2.39, output_throughput: 611.3, mean_ttft_ms: 61.2, median_ttft_ms: 60.1, p99_ttft_ms: 99.1 };
    const runs = { 'single-none': single, 'single-eagle': { ...single, date: '20260914-100301', output_throughput: 901.3, mean_ttft_ms: 64.0 }, 'multi-none': multi, 'multi-eagle': { ...multi, date: '20260914-100601', output_throughput: 950.2, mean_ttft_ms: 90.0 } };
    for (const [name, result] of Object.entries(runs)) writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ ...result, spec: name.endsWith('eagle') ? 'eagle' : 'none' }));
    const sink = new DiagnosticCollector();
    const { rows, configColumns } = buildRuns(scanPaths([dir]).records.slice(), sink);
    expect(rows).toHaveLength(4);
    const compared = compareRuns(rows, { baseline: parseFilter('spec=none'), configColumns: [...configColumns, 'spec'] });
    const pairs = compared.filter((r) => r.pair_status === 'ok').map((r) => [r.source_file, r.baseline_source_file]).sort();
    expect(pairs).toEqual([
      ['multi-eagle.json', 'multi-none.json'],
      ['single-eagle.json', 'single-none.json'],
    ]);
  });

  it('gives a report of multi-turn runs a chart of their turns, and a report of none no word of it', async () => {
    const dir = path.join(tmp, 'report');
    mkdirSync(path.join(dir, 'multi'), { recursive: true });
    copyFileSync(RESULT, path.join(dir, 'multi/result.json'));
    const multi = await buildFigures(await loadTables([dir], {}, undefined));
    const turns = multi.find((f) => f.chart === 'turn-lines');
    expect(turns?.drawn).toBe(true);
    if (turns?.drawn) expect(JSON.stringify(turns.spec)).toContain('"turn":3,"value":106.5');
    const single = await buildFigures(await loadTables([path.join(FIXTURES, 'vllm-bench-result-json/basic')], {}, undefined));
    expect(single.map((f) => f.chart)).not.toContain('turn-lines');
  });
});

describe("vLLM's multi-turn benchmark script: its printed summary and its --stats-json-output", () => {
  const PRINTED = path.join(FIXTURES, 'vllm-multi-turn-bench/layout-2026-stats-json-console/input.log');
  const STATS = path.join(FIXTURES, 'vllm-multi-turn-bench/layout-2026-stats-json/input.json');

  it('are one run: the JSON kept (full precision), the console giving the configuration', () => {
    const dir = path.join(tmp, 'script', 'qwen3-8b');
    mkdirSync(dir, { recursive: true });
    copyFileSync(PRINTED, path.join(dir, 'bench.log'));
    mkdirSync(path.join(dir, 'stats'));
    copyFileSync(STATS, path.join(dir, 'stats', 'requests.json'));
    const sink = new DiagnosticCollector();
    const { rows } = buildRuns(scanPaths([path.join(tmp, 'script')]).records.slice(), sink);
    expect(rows.map((r) => [r.source_file, r.completed, r.max_concurrency, r.model, r.mean_ttft_ms])).toEqual([
      ['qwen3-8b/stats/requests.json', 12, 2, '/models/Qwen3-8B', 64.28613666666666],
    ]);
    expect(sink.list().filter((d) => d.code === 'normalize/duplicate-run').map((d) => d.file)).toEqual(['qwen3-8b/bench.log']);
  });

  it('are two runs when the requests differ from what was printed', () => {
    const dir = path.join(tmp, 'script-other');
    mkdirSync(dir, { recursive: true });
    copyFileSync(PRINTED, path.join(dir, 'bench.log'));
    const requests = JSON.parse(readFileSync(STATS, 'utf8')) as { ttft_ms: number }[];
    writeFileSync(path.join(dir, 'requests.json'), JSON.stringify(requests.map((r) => ({ ...r, ttft_ms: r.ttft_ms + 5 })), null, 2));
    const { rows } = buildRuns(scanPaths([dir]).records.slice(), new DiagnosticCollector());
    expect(rows).toHaveLength(2);
  });
});
