import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { RunRecord } from '../../../src/core/records.js';
import { asRelPath } from '../../../src/core/types.js';
import { grammar } from '../../../grammars/vllm-bench-startup/index.js';
import { sweepCombination } from '../../../grammars/vllm-bench-startup/json.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** A printed result as vllm/benchmarks/startup.py lays it out (own values). */
function printed(opts: { avgStartup?: string; phases?: readonly ('COLD' | 'WARM')[]; encoder?: boolean; value?: string } = {}): string {
  const { avgStartup = 'Avg startup time', phases = ['COLD', 'WARM'], encoder = false, value } = opts;
  const lines = ['='.repeat(60), 'STARTUP TIME BENCHMARK RESULTS', '='.repeat(60)];
  for (const phase of phases) {
    const base = phase === 'COLD' ? 40 : 20;
    lines.push('', `${phase} STARTUP:`, `${avgStartup}: ${value ?? `${base}.50`} seconds`, `Avg compilation time:   ${base / 10}.25 seconds`);
    if (encoder) lines.push(`Avg encoder compilation time: ${base / 20}.75 seconds`);
    const metrics = ['Startup', 'Compilation', ...(encoder ? ['Encoder compilation'] : [])];
    metrics.forEach((m, i) => {
      lines.push(`${m} time percentiles:`);
      for (const p of [10, 25, 50, 75, 90, 99]) lines.push(`  ${p}%: ${base - 10 * i + p / 100} seconds`);
    });
  }
  lines.push('='.repeat(60));
  return lines.join('\n');
}

/** An `--output-json` result (2026 key order), own values. */
function resultJson(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const pct = (base: number) => ({ 10: base, 25: base + 0.5, 50: base + 1, 75: base + 1.5, 90: base + 2, 99: base + 2.5 });
  return {
    avg_cold_startup_time: 45.125,
    cold_startup_times: [44.5, 45.75],
    cold_startup_percentiles: pct(44.5),
    avg_cold_compilation_time: 17.5,
    cold_compilation_times: [17.25, 17.75],
    cold_compilation_percentiles: pct(17.25),
    avg_warm_startup_time: 21.25,
    warm_startup_times: [21, 21.5, 21.25],
    warm_startup_percentiles: pct(21),
    avg_warm_compilation_time: 2.5,
    warm_compilation_times: [2.25, 2.75, 2.5],
    warm_compilation_percentiles: pct(2.25),
    ...extra,
  };
}

function parseAt(path: string, text: string) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(path), lines: text.split('\n') }, sink);
  return { records: records as RunRecord[], diagnostics: sink.list() };
}

const detect = (head: string, path = 'x.txt') => grammar.detect({ path: asRelPath(path), head }).score;

describe('vllm-bench-startup printed results', () => {
  it('reads both phases: averages and percentiles per metric, in seconds', () => {
    const { records, diagnostics } = runGrammar(grammar, `Measuring cold startup time...\n\n${printed()}\n`);
    expect(diagnostics).toEqual([]);
    const [f] = runFields(records);
    expect(f).toMatchObject({
      avg_cold_startup_time_s: 40.5,
      avg_cold_compilation_time_s: 4.25,
      p10_cold_startup_time_s: 40.1,
      p99_cold_compilation_time_s: 30.99,
      avg_warm_startup_time_s: 20.5,
      avg_warm_compilation_time_s: 2.25,
      p50_warm_startup_time_s: 20.5,
      p99_warm_compilation_time_s: 10.99,
      client: 'vllm-bench-startup',
      engine: 'vllm',
    });
    expect(records[0]).toMatchObject({ kind: 'run', complete: true, at: { line: 4 } });
    // every value keeps its line: the warm average is the 22nd line of the block's text (+2 above it)
    expect((records[0] as RunRecord).lines.avg_warm_startup_time_s).toBe(printed().split('\n').indexOf('Avg startup time: 20.50 seconds') + 3);
  });

  it('reads the 2025 spelling (`Avg total startup time:`) as the startup time', () => {
    const [f] = runFields(runGrammar(grammar, printed({ avgStartup: 'Avg total startup time' })).records);
    expect(f?.avg_cold_startup_time_s).toBe(40.5);
    expect(f?.avg_warm_startup_time_s).toBe(20.5);
  });

  it('reads the encoder compilation time of a multimodal model (2026)', () => {
    const [f] = runFields(runGrammar(grammar, printed({ encoder: true })).records);
    expect(f).toMatchObject({ avg_cold_encoder_compilation_time_s: 2.75, p99_warm_encoder_compilation_time_s: 0.99, avg_warm_encoder_compilation_time_s: 1.75 });
  });

  it('gives each result of a file its own run, and a result cut short is partial', () => {
    const { records, diagnostics } = runGrammar(grammar, `${printed()}\n${printed({ phases: ['COLD'] })}\n`);
    expect(records.map((r) => (r as RunRecord).complete)).toEqual([true, false]);
    expect(runFields(records)[1]).not.toHaveProperty('avg_warm_startup_time_s');
    expect(diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
  });

  it('says an unreadable value and a statistic seen twice, never crashes', () => {
    const twice = printed().replace('WARM STARTUP:', 'WARM STARTUP:\nAvg startup time: 99.00 seconds\nAvg startup time: 98.00 seconds');
    const { records, diagnostics } = runGrammar(grammar, `${printed({ value: 'n/a?' })}\n${twice}`);
    expect(diagnostics.map((d) => d.code)).toEqual(['block/bad-value', 'block/bad-value', 'block/duplicate-label', 'block/duplicate-label']);
    expect(runFields(records)[1]?.avg_warm_startup_time_s).toBe(99);
  });

  it('counts statistics above every title in one info', () => {
    const { records, diagnostics } = runGrammar(grammar, `  10%: 1.00 seconds\nAvg startup time: 2.00 seconds\n${printed()}`);
    expect(records).toHaveLength(1);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['parse/unrecognized-lines', 1]]);
  });
});

describe('vllm-bench-startup JSON', () => {
  it('reads --output-json: averages, percentiles by percentage, iteration counts', () => {
    const { records, diagnostics } = runGrammar(grammar, JSON.stringify(resultJson(), null, 4));
    expect(diagnostics).toEqual([]);
    const [f] = runFields(records);
    expect(f).toMatchObject({ avg_cold_startup_time_s: 45.125, p99_cold_startup_time_s: 47, p10_warm_compilation_time_s: 2.25, num_iters_cold: 2, num_iters_warm: 3 });
    expect(f).not.toHaveProperty('run_number');
    expect((records[0] as RunRecord).lines.p25_cold_startup_time_s).toBe(9);
  });

  it('reads a sweep run: run_number, overrides as flags, _benchmark_name as label, the folder otherwise', () => {
    const over = { run_number: 1, _benchmark_name: 'tp4', tensor_parallel_size: 4, model: 'Qwen/Qwen3-32B', enforce_eager: false };
    const named = parseAt('out/exp/SERVE--tp4-STARTUP--cold5/run=1.json', JSON.stringify(resultJson(over), null, 2));
    expect(named.records[0]).toMatchObject({ label: 'tp4', fields: { run_number: 1, tp: 4, model: 'Qwen/Qwen3-32B', enforce_eager: false } });
    const { _benchmark_name: _, ...unnamed } = over;
    expect(parseAt('out/exp/SERVE--tp=4-STARTUP--num_iters_cold=5/run=1.json', JSON.stringify(resultJson(unnamed))).records[0]?.label).toBe('tp=4-num_iters_cold=5');
  });

  it('reads every run of a combination summary.json', () => {
    const text = JSON.stringify([resultJson({ run_number: 0 }), resultJson({ run_number: 1 })], null, 4);
    const { records } = parseAt('out/exp/SERVE--a/summary.json', text);
    expect(records.map((r) => [r.label, r.fields.run_number])).toEqual([['a', 0], ['a', 1]]);
    expect(records[1]?.at.line).toBeGreaterThan(records[0]?.at.line ?? 0);
  });

  it('keeps a result with no warm phase as partial, and says values that are not numbers', () => {
    const { avg_warm_startup_time: _a, ...cold } = resultJson({ avg_cold_compilation_time: 'slow' });
    const { records, diagnostics } = runGrammar(grammar, JSON.stringify(cold));
    expect(records[0]).toMatchObject({ complete: false });
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['report/missing-section', 'table/bad-cell']);
  });

  it('says a JSON document that is no startup result', () => {
    const { records, diagnostics } = runGrammar(grammar, '[{"avg_latency": 1.5}]');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['json/not-a-result']);
  });
});

describe('vllm-bench-startup summary.csv', () => {
  const header = ',avg_cold_startup_time,cold_startup_times,cold_startup_percentiles,avg_warm_startup_time,warm_startup_times,run_number,_benchmark_name,max_num_seqs';
  it('reads each row as its run=N.json: Python lists and dicts, empty cells as none', () => {
    const rows = [header, '0,30.5,"[30.0, 31.0]","{10: 30.1, 99: 30.99}",12.25,"[12.0, 12.5]",0,small,64.0', '1,31.5,"[31.0, 32.0]","{10: 31.1, 99: 31.99}",13.25,"[13.0, 13.5]",0,,'];
    const { records, diagnostics } = runGrammar(grammar, rows.join('\n'));
    expect(diagnostics).toEqual([]);
    expect(records.map((r) => (r as RunRecord).label)).toEqual(['small', null]);
    expect(runFields(records)).toEqual([
      expect.objectContaining({ avg_cold_startup_time_s: 30.5, p99_cold_startup_time_s: 30.99, num_iters_cold: 2, num_iters_warm: 2, max_num_seqs: 64, run_number: 0 }),
      expect.not.objectContaining({ max_num_seqs: expect.anything() }),
    ]);
  });

  it('keeps a row cut short as partial, and counts rows that are no run', () => {
    const { records, diagnostics } = runGrammar(grammar, [header, '0,30.5,"[30.0]","{10: 30.1}",12.25', '1,,,,,,,,'].join('\n'));
    expect(records[0]).toMatchObject({ complete: false });
    expect(diagnostics.map((d) => d.code)).toEqual(['table/short-row', 'parse/unrecognized-lines']);
  });
});

describe('vllm-bench-startup detection', () => {
  it('claims its printed result, JSON and summary.csv', () => {
    expect(detect(`log\n${printed()}`)).toBeGreaterThan(0);
    expect(detect(JSON.stringify(resultJson(), null, 4), 'r.json')).toBeGreaterThan(0);
    expect(detect(JSON.stringify([resultJson()]), 'summary.json')).toBeGreaterThan(0);
    expect(detect(',avg_cold_startup_time,cold_startup_times\n0,1.5,[1.5]\n', 'summary.csv')).toBeGreaterThan(0);
  });

  it("leaves vLLM's PyTorch-format copy, vllm bench sweep serve's summary.csv and text that only names the keys", () => {
    const copy = JSON.stringify([{ benchmark: { name: 'vLLM benchmark', extra_info: { args: {} } }, metric: { name: 'avg_cold_startup_time', benchmark_values: [45.1] } }]);
    expect(detect(copy, 'r.cold_startup.pytorch.json')).toBe(0);
    expect(detect(',date,request_throughput,run_number\n0,x,1.5,0\n', 'summary.csv')).toBe(0);
    expect(detect('the avg_cold_startup_time key and STARTUP TIME BENCHMARK RESULTS in prose\n')).toBe(0);
  });
});

describe('sweepCombination', () => {
  it('names a combination from its folder, either part alone', () => {
    expect(sweepCombination('e/SERVE--a-STARTUP--b/run=0.json')).toBe('a-b');
    expect(sweepCombination('e/SERVE--max_model_len=4096/run=0.json')).toBe('max_model_len=4096');
    expect(sweepCombination('e/STARTUP--num_iters_cold=5/summary.json')).toBe('num_iters_cold=5');
    expect(sweepCombination('results/startup.json')).toBeNull();
    expect(sweepCombination('startup.json')).toBeNull();
  });
});
