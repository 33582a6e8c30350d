import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grammar as jsonlGrammar } from '../../grammars/sglang-bench-speculative-jsonl/index.js';
import { grammar } from '../../grammars/sglang-bench-serving/index.js';
import { compareRuns } from '../../src/analyze/compare.js';
import { parseFilter } from '../../src/analyze/filter.js';
import { DiagnosticCollector, formatDiagnostic } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { buildRuns } from '../../src/normalize/build-runs.js';
import { scanPaths } from '../../src/pipeline/scan.js';
import { runGrammar } from '../helpers/grammar-run.js';

/**
 * SGLang scripts/playground/bench_speculative.py's console (sgl-project/sglang 96fd6bf0): per grid
 * point `Start i=N: …`, the server's output, the warm-up batch's block, the measured batch's block,
 * `Finish i=N: …, speed=X token/s, step_time=Y ms`. Two grid points: the baseline (line 1 – 73)
 * and steps 3 / topk 1 / 4 draft tokens (74 – 148).
 */
const CONSOLE = readFileSync(path.join(__dirname, '../../fixtures/sglang-bench-serving/bench-speculative-console/input.txt'), 'utf8');
const LINES = CONSOLE.split('\n');
/** The JSONL the same sweep appended (the values the Finish lines print rounded). */
const JSONL = [
  '{"batch_size": 1, "steps": 0, "topk": 0, "num_draft_tokens": 0, "acc_length": 1.0, "step_time": 0.00621, "speed": 161.028, "completion_tokens": 512.0}',
  '{"batch_size": 1, "steps": 3, "topk": 1, "num_draft_tokens": 4, "acc_length": 3.127, "step_time": 0.00792, "speed": 394.823, "completion_tokens": 512.0}',
].join('\n');

const runsOf = (text: string) => {
  const { records, diagnostics } = runGrammar(grammar, text);
  return { runs: records.filter((r): r is RunRecord => r.kind === 'run'), diagnostics };
};
const codes = (diagnostics: ReturnType<typeof runsOf>['diagnostics']) => diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}`);
/** The columns the grid point gives a run (the block's own stay the block's). */
const GRID_COLUMNS = ['client', 'batch_size', 'max_concurrency', 'max_num_seqs', 'spec_method', 'spec_num_steps', 'spec_eagle_topk', 'spec_num_draft_tokens', 'num_spec_tokens', 'output_speed_per_user', 'p20_step_time_ms'];
const pick = (fields: Record<string, unknown>, columns: readonly string[]) => Object.fromEntries(columns.filter((c) => Object.hasOwn(fields, c)).map((c) => [c, fields[c]]));

describe('sglang-bench-serving: bench_speculative.py console', () => {
  it('reads one run per grid point, its measured batch, and says the warm-up batch is no run', () => {
    const { runs, diagnostics } = runsOf(CONSOLE);
    expect(runs.map((r) => r.at.line)).toEqual([43, 117]);
    expect(codes(diagnostics)).toEqual(['9 info table/ignored-block', '82 info table/ignored-block']);
    expect(diagnostics[0]?.message).toContain('warm-up batch of grid point i=0');
    expect(runs.map((r) => r.fields.completed)).toEqual([16, 16]);
  });

  it("gives the run its grid point's settings, each from the line that prints it", () => {
    const [base, spec] = runsOf(CONSOLE).runs;
    expect(pick(base?.fields ?? {}, GRID_COLUMNS)).toEqual({
      client: 'sglang-bench-speculative', batch_size: 1, max_concurrency: 1, max_num_seqs: 1, spec_method: 'none', output_speed_per_user: 161.03, p20_step_time_ms: 6.21,
    });
    expect(pick(spec?.fields ?? {}, GRID_COLUMNS)).toEqual({
      client: 'sglang-bench-speculative', batch_size: 1, max_concurrency: 1, max_num_seqs: 1,
      spec_num_steps: 3, spec_eagle_topk: 1, spec_num_draft_tokens: 4, num_spec_tokens: 4, output_speed_per_user: 394.82, p20_step_time_ms: 7.92,
    });
    // Start i=1 on line 74, Finish i=1 on line 148; the block's own concurrency line stays its
    expect(pick(spec?.lines ?? {}, ['batch_size', 'spec_num_steps', 'num_spec_tokens', 'output_speed_per_user', 'p20_step_time_ms', 'max_concurrency'])).toEqual({
      batch_size: 74, spec_num_steps: 74, num_spec_tokens: 74, output_speed_per_user: 148, p20_step_time_ms: 148, max_concurrency: 120,
    });
    expect(LINES[73]).toMatch(/^Start i=1:/);
    expect(LINES[147]).toMatch(/^Finish i=1:/);
  });

  it("keeps the block's measured output throughput and acceptance length, not the JSONL's speed × batch", () => {
    const [base, spec] = runsOf(CONSOLE).runs;
    expect(base?.fields.output_throughput).toBe(156.96);
    expect(spec?.fields).toMatchObject({ output_throughput: 380.67, spec_acceptance_length: 3.13 });
    expect(base?.fields).not.toHaveProperty('spec_acceptance_length');
  });

  it('maps a grid point as the JSONL grammar does (one shared rule)', () => {
    const console = runsOf(CONSOLE).runs.map((r) => pick(r.fields, GRID_COLUMNS));
    const jsonl = runGrammar(jsonlGrammar, JSONL).records.map((r) => (r.kind === 'run' ? pick(r.fields, GRID_COLUMNS) : {}));
    // the same columns, the speed to the console's two decimals
    expect(console.map((c) => ({ ...c, output_speed_per_user: Math.round(Number(c.output_speed_per_user)) }))).toEqual(
      jsonl.map((c) => ({ ...c, output_speed_per_user: Math.round(Number(c.output_speed_per_user)) })),
    );
  });

  it('warns of a grid point with no Finish line and reads its blocks as before', () => {
    const cut = LINES.slice(0, 112).join('\n'); // i=1 killed after its warm-up batch
    const { runs, diagnostics } = runsOf(cut);
    expect(runs.map((r) => [r.at.line, r.fields.client, r.fields.completed])).toEqual([
      [43, 'sglang-bench-speculative', 16],
      [82, 'sglang-bench-serving', 1],
    ]);
    expect(runs[1]?.fields).not.toHaveProperty('spec_num_steps');
    expect(codes(diagnostics)).toEqual(['9 info table/ignored-block', '74 warning block/unfinished-grid-point']);
    expect(diagnostics[1]?.message).toContain('grid point i=1 (batch_size=1, steps=3, topk=1, num_draft_tokens=4) has no Finish line');
    // a point run again (`--start 1`) after the killed one: the killed one unfinished, the new one read
    const resumed = [...LINES.slice(0, 112), ...LINES.slice(73)].join('\n');
    const again = runsOf(resumed);
    expect(again.runs.map((r) => [r.fields.client, r.fields.completed])).toEqual([
      ['sglang-bench-speculative', 16],
      ['sglang-bench-serving', 1],
      ['sglang-bench-speculative', 16],
    ]);
    expect(codes(again.diagnostics)).toEqual(['9 info table/ignored-block', '74 warning block/unfinished-grid-point', '121 info table/ignored-block']);
  });

  it('reads a grid point whose Start line is not in the file (a log kept from its middle) by its Finish line', () => {
    // `tail -n +2`: Start i=0 gone, its Finish on line 72 now; the warm-up block is still no run
    const { runs, diagnostics } = runsOf(LINES.slice(1).join('\n'));
    expect(runs.map((r) => [r.at.line, r.fields.completed])).toEqual([
      [42, 16],
      [116, 16],
    ]);
    expect(pick(runs[0]?.fields ?? {}, GRID_COLUMNS)).toEqual({
      client: 'sglang-bench-speculative', batch_size: 1, max_concurrency: 1, max_num_seqs: 1, spec_method: 'none', output_speed_per_user: 161.03, p20_step_time_ms: 6.21,
    });
    expect(pick(runs[0]?.lines ?? {}, ['client', 'batch_size', 'output_speed_per_user'])).toEqual({ client: 72, batch_size: 72, output_speed_per_user: 72 });
    expect(codes(diagnostics)).toEqual(['8 info table/ignored-block', '81 info table/ignored-block']);
  });

  it("does not take a Finish of another grid point for a Start's", () => {
    const other = LINES.map((l) => l.replace('Finish i=1:', 'Finish i=7:')).join('\n');
    const { runs, diagnostics } = runsOf(other);
    expect(runs.map((r) => r.fields.client)).toEqual(['sglang-bench-speculative', 'sglang-bench-serving', 'sglang-bench-serving']);
    expect(codes(diagnostics)).toContain('74 warning block/unfinished-grid-point');
  });

  it('reads a block outside any Start / Finish pair as before, beside the pairs', () => {
    // the measured block of i=0 pasted above the whole console, with no Start nor Finish of its own
    const plainBlock = LINES.slice(38, 72);
    const plain = runsOf(plainBlock.join('\n'));
    const { runs, diagnostics } = runsOf([...plainBlock, ...LINES].join('\n'));
    expect(runs.map((r) => [r.at.line, r.fields.client])).toEqual([
      [5, 'sglang-bench-serving'],
      [34 + 43, 'sglang-bench-speculative'],
      [34 + 117, 'sglang-bench-speculative'],
    ]);
    expect(runs[0]?.fields).toEqual(plain.runs[0]?.fields);
    expect(plain.diagnostics).toEqual([]);
    expect(codes(diagnostics)).toEqual([`${34 + 9} info table/ignored-block`, `${34 + 82} info table/ignored-block`]);
    // a Finish line with no Start before it: the block above it is its grid point's run, its own values kept
    const orphan = runsOf(LINES.slice(38, 73).join('\n'));
    expect(orphan.runs.map((r) => r.fields)).toEqual(plain.runs.map((r) => ({ ...r.fields, ...pick(runsOf(CONSOLE).runs[0]?.fields ?? {}, GRID_COLUMNS) })));
  });
});

describe('bench_speculative.py console and JSONL of one sweep in one folder', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bench-speculative-console-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const build = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(tmp, 'sweep-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const sink = new DiagnosticCollector();
    const built = buildRuns(scanPaths([dir]).records.slice(), sink);
    return { built, sink };
  };

  it('counts every grid point once, the JSONL kept with the block values merged in', () => {
    const { built, sink } = build({ 'bench_speculative.log': CONSOLE, 'output.jsonl': `${JSONL}\n` });
    expect(built.rows.map((r) => [r.source_file, r.source_line, r.completed, r.mean_ttft_ms])).toEqual([
      ['output.jsonl', 1, 16, 15.12],
      ['output.jsonl', 2, 16, 17.04],
    ]);
    expect(sink.list().filter((d) => d.severity !== 'info').map(formatDiagnostic)).toEqual([]);
    expect(sink.list().filter((d) => d.code === 'normalize/duplicate-run').map((d) => d.line)).toEqual([43, 117]);
  });

  it('pairs the grid point with the baseline from the console alone', () => {
    const { built, sink } = build({ 'bench_speculative.log': CONSOLE });
    const pairs = compareRuns(built.rows, { baseline: parseFilter('spec_method=none'), configColumns: built.configColumns, sink });
    expect(pairs.map((p) => [p.pair_status, p.num_spec_tokens, p.output_throughput, p.baseline_output_throughput])).toEqual([['ok', 4, 380.67, 156.96]]);
  });
});
