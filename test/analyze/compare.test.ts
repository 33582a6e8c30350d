import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/analyze/compare.js';
import { matchesFilter, parseFilter } from '../../src/analyze/filter.js';
import { defaultMatchKeys } from '../../src/analyze/match-keys.js';
import { orientedRatio } from '../../src/analyze/speedup.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { FieldValue } from '../../src/core/types.js';
import { CONFIG_COLUMNS } from '../../src/normalize/schema.js';

type Row = Record<string, FieldValue>;
let n = 0;
function run(fields: Row): Row {
  n++;
  return { run_id: `r${n}`, source_file: `f${String(n).padStart(3, '0')}.log`, source_line: 1, label: null, model: 'm', tp: 4, failed: 0, ...fields };
}
const base = (c: number, tput: number, extra: Row = {}) => run({ spec_method: 'none', max_concurrency: c, output_throughput: tput, mean_tpot_ms: 20, ...extra });
const spec = (c: number, tput: number, extra: Row = {}) => run({ spec_method: 'eagle3', num_spec_tokens: 7, draft_model: 'd', max_concurrency: c, output_throughput: tput, mean_tpot_ms: 10, ...extra });
const none = parseFilter('spec_method=none');
const opts = { baseline: none, metrics: ['output_throughput', 'mean_tpot_ms'] };

describe('filters', () => {
  it('compares values as strings and numbers', () => {
    expect(matchesFilter({ tp: 8 }, parseFilter('tp=8'))).toBe(true);
    expect(matchesFilter({ tp: '8' }, parseFilter('tp=8.0'))).toBe(true);
    expect(matchesFilter({ request_rate: Infinity }, parseFilter('request_rate=inf'))).toBe(true);
    expect(matchesFilter({ spec_method: 'none', tp: 4 }, parseFilter('spec_method=none,tp=8'))).toBe(false);
    expect(matchesFilter({ spec_method: null }, parseFilter('spec_method=none'))).toBe(false);
    expect(matchesFilter({ quantization: null }, parseFilter('quantization=none'))).toBe(true);
  });
  it('refuses malformed terms', () => {
    expect(() => parseFilter('spec_method')).toThrow(/column=value/);
  });
});

describe('energy per output token', () => {
  it('is compared by default when a run measured it, less energy being a speedup above 1', () => {
    const rows = [base(8, 1000, { energy_per_output_token_j: 0.6 }), spec(8, 1500, { energy_per_output_token_j: 0.4 })];
    const out = compareRuns(rows, { baseline: none });
    const pair = out.find((r) => r.spec_method === 'eagle3');
    expect(pair?.speedup_energy_per_output_token_j).toBeCloseTo(1.5, 10);
    expect(compareRuns([base(8, 1000), spec(8, 1500)], { baseline: none }).some((r) => 'speedup_energy_per_output_token_j' in r)).toBe(false);
  });
});

describe('metric direction', () => {
  it('is a ratio for throughputs and the inverse for latencies', () => {
    expect(orientedRatio('output_throughput', 300, 200)).toBe(1.5);
    expect(orientedRatio('total_token_throughput', 100, 200)).toBe(0.5);
    expect(orientedRatio('mean_tpot_ms', 10, 20)).toBe(2);
    expect(orientedRatio('mean_ttft_ms', 40, 20)).toBe(0.5);
    expect(orientedRatio('mean_e2el_ms', 5, 10)).toBe(2);
    expect(orientedRatio('output_throughput', 1, 0)).toBeNull();
  });
});

describe('pairing', () => {
  it('pairs on the varying configuration columns, never on treatment columns', () => {
    const rows = [base(1, 100), base(8, 400), spec(1, 180), spec(8, 360)];
    expect(defaultMatchKeys(rows, CONFIG_COLUMNS, none)).toEqual(['max_concurrency']);
    const out = compareRuns(rows, opts);
    expect(out.map((r) => [r.max_concurrency, r.pair_status, r.baseline_run_id, r.speedup_output_throughput, r.speedup_mean_tpot_ms])).toEqual([
      [1, 'ok', rows[0]?.run_id, 1.8, 2],
      [8, 'ok', rows[1]?.run_id, 0.9, 2],
    ]);
  });

  it('refuses a baseline of another model: mismatch:model, with a diagnostic', () => {
    const sink = new DiagnosticCollector();
    const out = compareRuns([base(1, 100, { model: 'other' }), spec(1, 180)], { ...opts, sink });
    expect(out[0]?.pair_status).toBe('mismatch:model');
    expect(out[0]?.speedup_output_throughput).toBeNull();
    expect(sink.list().map((d) => [d.code, d.message])).toEqual([['compare/mismatch', expect.stringMatching(/^nearest baseline f\d+\.log differs on model \(m vs other\): not compared$/)]]);
  });

  it('leaves a run that measured none of the compared metrics unpaired (a server start-up time), with an info, not a mismatch', () => {
    const sink = new DiagnosticCollector();
    const startup = run({ client: 'vllm-bench-startup', model: null, tp: null, avg_cold_startup_time_s: 41.2 });
    const out = compareRuns([base(1, 100), spec(1, 180), startup], { ...opts, sink });
    expect(out.map((r) => r.pair_status)).toEqual(['ok', 'no-metric']);
    expect(sink.list().map((d) => [d.code, d.severity])).toEqual([['compare/no-metric', 'info']]);
  });

  it('lists models with the numbers in their names read as numbers (8B before 70B)', () => {
    const models = ['org/m-70B', 'org/m-8B', 'org/m-13B'];
    const rows = models.flatMap((model) => [base(4, 100, { model }), spec(4, 150, { model })]);
    expect(compareRuns(rows, opts).map((r) => r.model)).toEqual(['org/m-8B', 'org/m-13B', 'org/m-70B']);
  });

  it("carries what the candidate accepted beside what it gained: the median of its repeats' acceptance", () => {
    const rows = [base(4, 100), ...[2.0, 3.0, 2.4].map((length) => spec(4, 150, { spec_acceptance_length: length, spec_acceptance_rate: (length - 1) / 7 }))];
    const [row] = compareRuns(rows, opts);
    expect([row?.repeats, row?.spec_acceptance_length, row?.spec_acceptance_rate]).toEqual([3, 2.4, 0.2]);
    // none measured: no column of nulls
    expect(compareRuns([base(4, 100), spec(4, 150)], opts)[0]).not.toHaveProperty('spec_acceptance_length');
  });

  it('says no-baseline when only the load point is missing', () => {
    const out = compareRuns([base(1, 100), spec(1, 150), spec(64, 900)], opts);
    expect(out.map((r) => r.pair_status)).toEqual(['ok', 'no-baseline']);
    expect(compareRuns([spec(1, 150)], opts)[0]?.pair_status).toBe('no-baseline');
  });

  it('claims no speedup when either side has failed requests', () => {
    const a = compareRuns([base(1, 100, { failed: 3 }), spec(1, 150)], opts);
    const b = compareRuns([base(1, 100), spec(1, 150, { failed: 1 })], opts);
    expect([a[0]?.pair_status, a[0]?.speedup_output_throughput, b[0]?.pair_status]).toEqual(['failed-requests', null, 'failed-requests']);
  });

  it('honours --match over the default keys', () => {
    const rows = [base(1, 100, { tp: 8 }), spec(1, 150, { tp: 4 })];
    expect(compareRuns(rows, opts)[0]?.pair_status).toBe('mismatch:tp');
    expect(compareRuns(rows, { ...opts, match: ['max_concurrency'] })[0]?.speedup_output_throughput).toBe(1.5);
  });

  it('treats filter columns as treatment: tp8 vs tp2 comparisons pair across tp', () => {
    const rows = [base(1, 100, { tp: 8 }), base(1, 120, { tp: 2 })];
    const out = compareRuns(rows, { baseline: parseFilter('tp=8'), metrics: ['output_throughput'] });
    expect(out.map((r) => [r.tp, r.pair_status, r.speedup_output_throughput])).toEqual([[2, 'ok', 1.2]]);
  });

  it('combines repeats by the median with a deterministic bootstrap interval', () => {
    const rows = [base(1, 100), base(1, 110), base(1, 90), spec(1, 150), spec(1, 160), spec(1, 140)];
    const out = compareRuns(rows, opts);
    expect(out).toHaveLength(1);
    const r = out[0] ?? {};
    expect([r.repeats, r.baseline_repeats, r.output_throughput, r.baseline_output_throughput, r.speedup_output_throughput]).toEqual([3, 3, 150, 100, 1.5]);
    const low = Number(r.speedup_output_throughput_ci_low);
    const high = Number(r.speedup_output_throughput_ci_high);
    expect(low).toBeLessThan(1.5);
    expect(high).toBeGreaterThan(1.5);
    expect(low).toBeGreaterThanOrEqual(140 / 110 - 1e-6);
    expect(high).toBeLessThanOrEqual(160 / 90 + 1e-6);
    const again = compareRuns(rows, opts)[0] ?? {};
    expect([again.speedup_output_throughput_ci_low, again.speedup_output_throughput_ci_high]).toEqual([low, high]);
    expect(compareRuns([base(1, 100), spec(1, 150)], opts)[0]?.speedup_output_throughput_ci_low).toBeNull();
  });

  it('appends failed configurations with their error', () => {
    const out = compareRuns([base(1, 100), spec(1, 150)], {
      ...opts,
      failedConfigurations: [{ source_file: 'x/serve.log', source_line: 2, error_at: 'x/serve.log:9', exception: 'torch.OutOfMemoryError', message: 'CUDA out of memory', config: { spec_method: 'ngram' }, config_sources: ['path'] }],
    });
    expect(out.map((r) => [r.pair_status, r.spec_method, r.error])).toEqual([
      ['ok', 'eagle3', null],
      ['failed-configuration', 'ngram', 'torch.OutOfMemoryError: CUDA out of memory'],
    ]);
  });
});

describe('repeats and baselines of another workload', () => {
  const sent = (inputPerRequest: number) => ({ completed: 100, total_input_tokens: inputPerRequest * 100 });

  it('are not pooled: runs alike in every column that sent other prompts are compared apart, with a warning', () => {
    const sink = new DiagnosticCollector();
    const rows = [base(8, 1000, sent(160)), base(8, 990, sent(280)), spec(8, 1600, sent(160)), spec(8, 1200, sent(280))];
    const out = compareRuns(rows, { ...opts, sink });
    expect(out.map((r) => [r.repeats, r.baseline_repeats, r.pair_status, r.speedup_output_throughput])).toEqual([
      [1, 1, 'ok', 1.6],
      [1, 1, 'ok', 1.212121],
    ]);
    expect(sink.list().map((d) => d.code)).toEqual(['compare/not-repeats']);
  });

  it('tell a run that measured speculative decoding from one that did not, though the columns name neither', () => {
    const sink = new DiagnosticCollector();
    const rows = [base(8, 1000), run({ max_concurrency: 8, output_throughput: 1000 }), run({ max_concurrency: 8, output_throughput: 1700, spec_acceptance_length: 2.6 })];
    const out = compareRuns(rows, { ...opts, sink });
    expect(out.map((r) => [r.repeats, r.output_throughput ?? null])).toEqual([
      [1, 1000],
      [1, 1700],
    ]);
    expect(sink.list().filter((d) => d.code === 'compare/not-repeats')).toHaveLength(1);
  });

  it('pool repeats within a quarter of each other (another seed, a range ratio), and leave unknown input alone', () => {
    const out = compareRuns([base(8, 1000, sent(200)), spec(8, 1500, sent(210)), spec(8, 1700, sent(190)), spec(8, 1600)], opts);
    expect(out.map((r) => [r.repeats, r.pair_status])).toEqual([[3, 'ok']]);
  });

  it('are no baseline: a mismatch on the workload, said', () => {
    const sink = new DiagnosticCollector();
    const out = compareRuns([base(8, 1000, sent(1024)), spec(8, 1500, sent(12_000))], { ...opts, sink });
    expect(out.map((r) => [r.pair_status, r.speedup_output_throughput ?? null])).toEqual([['mismatch:workload', null]]);
    expect(sink.list().map((d) => d.message)).toEqual([expect.stringContaining('input tokens per request 12000 vs 1024')]);
  });
});
