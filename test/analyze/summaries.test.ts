import { describe, expect, it } from 'vitest';
import { annotateBreakEven } from '../../src/analyze/annotate-break-even.js';
import { allSummaries } from '../../src/analyze/summaries.js';
import { bestSpeedups } from '../../src/analyze/summary-best.js';
import { bestSpecTokens } from '../../src/analyze/summary-best-k.js';
import { breakEven, crossing } from '../../src/analyze/summary-break-even.js';
import { optimizationLadder } from '../../src/analyze/summary-ladder.js';
import { parseSla, slaTable } from '../../src/analyze/summary-sla.js';
import type { FieldValue } from '../../src/core/types.js';

type Row = Record<string, FieldValue>;
const pair = (method: string, k: number, c: number, s: number, extra: Row = {}): Row => ({
  run_id: `${method}-${k}-${c}`, label: null, spec_method: method, num_spec_tokens: k, dataset: 'random', max_concurrency: c,
  pair_status: 'ok', output_throughput: 100 * s, baseline_output_throughput: 100, speedup_output_throughput: s, ...extra,
});

describe('break-even', () => {
  it('interpolates on log2 concurrency', () => {
    expect(crossing([{ x: 8, s: 1.2 }, { x: 32, s: 0.8 }])).toEqual({ verdict: 'falls below 1', break_even: 16 });
    expect(crossing([{ x: 1, s: 0.9 }, { x: 4, s: 1.1 }])).toEqual({ verdict: 'rises above 1', break_even: 2 });
    expect(crossing([{ x: 1, s: 1.5 }, { x: 64, s: 1.1 }])).toEqual({ verdict: 'always above 1', break_even: null });
    expect(crossing([{ x: 1, s: 0.5 }, { x: 64, s: 1 }])).toEqual({ verdict: 'never above 1', break_even: null });
  });
  it('reports one line per method and K, and annotates the rows', () => {
    const rows = [pair('draft_model', 8, 1, 1.6), pair('draft_model', 8, 8, 1.2), pair('draft_model', 8, 32, 0.8), pair('eagle3', 7, 1, 2), pair('eagle3', 7, 64, 1.1)];
    expect(breakEven(rows).map((b) => [b.spec_method, b.num_spec_tokens, b.verdict, b.break_even])).toEqual([
      ['draft_model', 8, 'falls below 1', 16],
      ['eagle3', 7, 'always above 1', null],
    ]);
    expect(annotateBreakEven(rows).map((r) => r.break_even_concurrency)).toEqual([16, 16, 16, null, null]);
  });
  it('never joins two workloads (or another varying configuration column) into one curve, and annotates each row with its own', () => {
    const short = [pair('eagle3', 3, 1, 1.5, { input_len: 128 }), pair('eagle3', 3, 64, 0.5, { input_len: 128 })];
    const long = [pair('eagle3', 3, 1, 1.6, { input_len: 8192 }), pair('eagle3', 3, 64, 1.4, { input_len: 8192 })];
    const rows = [...short, ...long].map((r): Row => ({ ...r, num_prompts: 10 * Number(r.max_concurrency) }));
    expect(breakEven(rows).map((b) => [b.input_len, b.points, b.verdict, b.break_even])).toEqual([
      [128, 2, 'falls below 1', 8],
      [8192, 2, 'always above 1', null],
    ]);
    expect(annotateBreakEven(rows).map((r) => r.break_even_verdict)).toEqual(['falls below 1', 'falls below 1', 'always above 1', 'always above 1']);
    // likewise the SLA table: one row per workload
    const runs: Row[] = rows.map((r) => ({ spec_method: 'eagle3', num_spec_tokens: 3, input_len: r.input_len ?? null, max_concurrency: r.max_concurrency ?? null, mean_ttft_ms: 100 }));
    expect(slaTable(runs, parseSla('ttft=200')).map((r) => [r.input_len, r.largest_max_concurrency_meeting_sla])).toEqual([[128, 64], [8192, 64]]);
  });
  it('does not cut a curve at a column that only repeats the load (a batch server started with --max-running-requests = the batch)', () => {
    const rows = [1, 8, 32].map((c, i) => pair('eagle3', 4, c, [1.8, 1.2, 0.8][i] as number, { max_num_seqs: c, batch_size: c }));
    expect(breakEven(rows).map((b) => [b.points, b.verdict, b.break_even])).toEqual([[3, 'falls below 1', 16]]);
    // a server flag that is swept on its own still tells configurations apart
    const swept = [1, 32].flatMap((c) => [64, 128].map((seqs) => pair('eagle3', 4, c, c === 1 ? 1.5 : 0.9, { max_num_seqs: seqs })));
    expect(breakEven(swept).map((b) => [b.max_num_seqs, b.points])).toEqual([[64, 2], [128, 2]]);
  });
  it('tells apart configurations by a flag of the runs table beyond the canonical columns (a multi-turn run, a server flag)', () => {
    const rows = [1, 32].flatMap((c) => [null, true].map((multi) => pair('eagle3', 4, c, multi ? (c === 1 ? 1.4 : 1.1) : c === 1 ? 1.5 : 0.9, { multi_turn: multi })));
    const configColumns = ['spec_method', 'num_spec_tokens', 'max_concurrency', 'multi_turn'];
    expect(breakEven(rows, { configColumns }).map((b) => [b.multi_turn, b.points, b.verdict])).toEqual([
      [null, 2, 'falls below 1'],
      [true, 2, 'always above 1'],
    ]);
    expect(annotateBreakEven(rows, { configColumns }).map((r) => r.break_even_verdict)).toEqual(['falls below 1', 'always above 1', 'falls below 1', 'always above 1']);
    // without the runs table's columns, only the canonical ones name a configuration: one curve of four points
    expect(breakEven(rows).map((b) => b.points)).toEqual([4]);
    const runs: Row[] = rows.map((r) => ({ spec_method: 'eagle3', num_spec_tokens: 4, multi_turn: r.multi_turn ?? null, max_concurrency: r.max_concurrency ?? null, mean_ttft_ms: r.multi_turn ? 300 : 100 }));
    expect(slaTable(runs, parseSla('ttft=200'), 'max_concurrency', 'output_throughput', configColumns).map((r) => [r.multi_turn, r.largest_max_concurrency_meeting_sla])).toEqual([[null, 32], [true, null]]);
  });
  it('names the break-even column for the load axis the runs step along (a rate is not a concurrency)', () => {
    const rated = [pair('eagle3', 3, 0, 1.2, { max_concurrency: null, request_rate: 2 }), pair('eagle3', 3, 0, 0.8, { max_concurrency: null, request_rate: 8 })];
    const [row] = annotateBreakEven(rated);
    expect([row?.break_even_request_rate, row?.break_even_verdict]).toEqual([4, 'falls below 1']);
    expect(row).not.toHaveProperty('break_even_concurrency');
  });
});

describe('best speedup and best K', () => {
  const rows = [pair('eagle3', 3, 1, 1.5), pair('eagle3', 7, 1, 1.9), pair('eagle3', 3, 16, 1.2), pair('eagle3', 7, 16, 1.1), pair('eagle3', 7, 32, 3, { pair_status: 'mismatch:model' })];
  it('finds the best configuration per method and dataset, ignoring refused pairs', () => {
    expect(bestSpeedups(rows).map((b) => [b.spec_method, b.dataset, b.best_speedup, b.num_spec_tokens, b.max_concurrency])).toEqual([['eagle3', 'random', 1.9, 7, 1]]);
  });
  it('finds the best num_spec_tokens per concurrency', () => {
    expect(bestSpecTokens(rows).map((b) => [b.max_concurrency, b.best_num_spec_tokens, b.best_speedup, b.tried])).toEqual([
      [1, 7, 1.9, '3;7'],
      [16, 3, 1.2, '3;7'],
    ]);
  });
  it('never chooses K across models or workloads, and goes along the request rate when that is the load', () => {
    const models = [pair('eagle3', 3, 1, 1.5, { model: 'a' }), pair('eagle3', 7, 1, 1.9, { model: 'b' }), pair('eagle3', 7, 1, 1.2, { model: 'a' }), pair('eagle3', 3, 1, 1.4, { model: 'b', input_len: 4096 })];
    expect(bestSpecTokens(models).map((b) => [b.model, b.input_len ?? null, b.best_num_spec_tokens, b.tried])).toEqual([
      ['a', null, 3, '3;7'],
      ['b', null, 7, '7'],
      ['b', 4096, 3, '3'],
    ]);
    const rates = [1, 4].flatMap((rate) => [3, 7].map((k) => pair('eagle3', k, Number.NaN, rate === 1 ? k / 3 : 3 / k, { max_concurrency: null, request_rate: rate })));
    expect(bestSpecTokens(rates).map((b) => [b.request_rate, b.best_num_spec_tokens])).toEqual([
      [1, 7],
      [4, 3],
    ]);
  });
  it('chooses K within each value of another configuration column (prefix caching on and off), never across them', () => {
    const rows = [false, true].flatMap((cache) => [2, 4].map((k) => pair('eagle3', k, 8, cache ? (k === 2 ? 1.6 : 1.3) : k === 2 ? 1.1 : 1.4, { enable_prefix_caching: cache })));
    expect(bestSpecTokens(rows).map((b) => [b.enable_prefix_caching, b.best_num_spec_tokens, b.tried])).toEqual([
      [false, 4, '2;4'],
      [true, 2, '2;4'],
    ]);
  });
});

describe('summary titles', () => {
  it('name the load they go along', () => {
    const titles = (rows: Row[]) => allSummaries(rows, rows, { sla: { mean_ttft_ms: 100 } }).map((t) => t.title);
    const byConcurrency = [1, 8].map((c) => pair('eagle3', 3, c, 1.2));
    const byRate = [1, 8].map((rate) => pair('eagle3', 3, Number.NaN, 1.2, { max_concurrency: null, request_rate: rate }));
    expect(titles(byConcurrency)).toEqual(expect.arrayContaining(['Break-even concurrency per method', 'Best num_spec_tokens per concurrency', 'Largest concurrency meeting the SLA (mean_ttft_ms ≤ 100 ms)']));
    expect(titles(byRate)).toEqual(expect.arrayContaining(['Break-even request rate per method', 'Best num_spec_tokens per request rate', 'Largest request rate meeting the SLA (mean_ttft_ms ≤ 100 ms)']));
  });
});

describe('optimization ladder', () => {
  it('gives each step vs the baseline and vs the previous step, in %', () => {
    const rows = [pair('none', 0, 8, 1.25, { label: 'fp8' }), pair('eagle3', 7, 8, 1.5, { label: 'fp8+eagle3' })];
    expect(optimizationLadder(rows).map((s) => [s.step, s.label, s.value, s.vs_baseline_pct, s.vs_previous_pct])).toEqual([
      [1, 'fp8', 125, 25, 25],
      [2, 'fp8+eagle3', 150, 50, 20],
    ]);
  });
});

describe('SLA table', () => {
  it('parses limits and finds the largest concurrency meeting all of them', () => {
    expect(parseSla('ttft=200,p99_tpot=50')).toEqual({ mean_ttft_ms: 200, p99_tpot_ms: 50 });
    expect(() => parseSla('ttft')).toThrow(/metric=milliseconds/);
    const runs: Row[] = [1, 8, 32, 64].map((c) => ({ spec_method: 'none', max_concurrency: c, mean_ttft_ms: 50 + 5 * c, mean_tpot_ms: 20 + c, output_throughput: 100 * c }));
    runs.push({ spec_method: 'eagle3', max_concurrency: 1, mean_ttft_ms: 900, mean_tpot_ms: 10, output_throughput: 150 });
    // what each configuration serves within the SLA: its throughput at that load
    expect(slaTable(runs, parseSla('ttft=250,tpot=60')).map((r) => [r.spec_method, r.largest_max_concurrency_meeting_sla, r.output_throughput, r.verdict])).toEqual([
      ['none', 32, 3200, 'meets'],
      ['eagle3', null, null, 'none meets'],
    ]);
    // repeats of a load by their median: one of three meeting the limit is not the load meeting it
    const repeats: Row[] = [30, 70, 80].map((tpot) => ({ spec_method: 'none', max_concurrency: 64, mean_ttft_ms: 100, mean_tpot_ms: tpot, output_throughput: 6400 }));
    expect(slaTable([...runs, ...repeats], parseSla('ttft=400,tpot=60')).map((r) => [r.spec_method, r.largest_max_concurrency_meeting_sla, r.mean_tpot_ms, r.runs])).toEqual([
      ['none', 32, 52, 1],
      ['eagle3', null, null, null],
    ]);
  });
});
