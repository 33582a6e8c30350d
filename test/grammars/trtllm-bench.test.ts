import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { grammar } from '../../grammars/trtllm-bench/index.js';
import { grammarRuns } from '../helpers/grammar-run.js';
import { breakdownColumn, convertUnit, decodingMethod, REPORT_LABELS, reportKey, schedulingPolicy, statName } from '../../grammars/trtllm-bench/labels.js';

const RULE = '='.repeat(59);

const runs = (text: string) => grammarRuns(grammar, text);

function section(title: string, ...body: string[]): string[] {
  return [RULE, `= ${title}`, RULE, ...body];
}

describe('trtllm-bench label sets', () => {
  it.each([
    // [version, label, column]
    ['1.x', 'Total Output Throughput (tokens/sec):', 'output_throughput'],
    ['1.x', 'Per User Output Throughput [w/ ctx] (tps/user):', 'output_throughput_per_user_with_ctx'],
    ['1.x', 'Per User Output Speed (tps/user):', 'output_speed_per_user'],
    ['1.x', 'Per GPU Output Throughput (tps/gpu):', 'output_throughput_per_gpu'],
    ['0.18', 'Per User Output Throughput (tokens/sec/user):', 'output_throughput_per_user_with_ctx'],
    ['0.18', 'Per User Output Speed [1/TPOT] (tokens/sec/user):', 'output_speed_per_user'],
    ['0.18', 'Per GPU Output Throughput (tokens/sec/gpu):', 'output_throughput_per_gpu'],
    ['0.16', 'Token Throughput (tokens/sec):', 'output_throughput'],
    ['0.16', 'Average inter-token latency (ms):', 'mean_itl_ms'],
    ['0.16', 'Average time-to-first-token (ms):', 'mean_ttft_ms'],
    ['0.12', 'Total Latency (seconds):', 'duration_s'],
    ['all', 'Number of concurrent requests:', 'mean_concurrent_requests'],
    ['all', 'Max Runtime Batch Size:', 'max_num_seqs'],
    ['all', 'Max Runtime Tokens:', 'max_num_batched_tokens'],
    ['<=0.19', 'TensorRT-LLM Version:', 'engine_version'],
    ['1.x', 'TensorRT LLM Version:', 'engine_version'],
  ])('%s %s → %s', (_v, label, column) => {
    expect(REPORT_LABELS[reportKey(label.replace(/:$/, ''))]?.column).toBe(column);
  });

  it('maps breakdown groups and statistics to schema columns', () => {
    expect(breakdownColumn('TPOT', 'P50')).toBe('median_tpot_ms');
    expect(breakdownColumn('TTFT', 'MINIMUM')).toBe('min_ttft_ms');
    expect(breakdownColumn('Latency', 'AVERAGE')).toBe('mean_e2el_ms');
    expect(breakdownColumn('Latency', 'P99')).toBe('p99_e2el_ms');
    expect(breakdownColumn('GTPS', 'MAXIMUM')).toBe('max_gtps');
    expect(breakdownColumn('AL', 'AVERAGE')).toBe('spec_acceptance_length');
    expect(breakdownColumn('DAR', 'AVERAGE')).toBe('spec_acceptance_rate');
    expect(breakdownColumn('DAR', 'P90')).toBe('p90_spec_acceptance_rate');
    expect(breakdownColumn('ADT', 'P95')).toBe('p95_spec_accepted_tokens_per_request');
    expect(breakdownColumn('XYZ', 'P50')).toBeNull();
    expect(statName('bogus')).toBeNull();
  });

  it('converts units to the column unit', () => {
    expect(convertUnit(16.406100739, 's', 'duration_s')).toBe(16.406100739);
    expect(convertUnit(1291504.1051, 'ms', 'duration_s')).toBe(1291.5041051);
    expect(convertUnit(0.0421, 's', 'mean_e2el_ms')).toBe(42.1);
    expect(convertUnit(42.1, 'ms', 'mean_e2el_ms')).toBe(42.1);
    expect(convertUnit(7, undefined, 'tp')).toBe(7);
  });

  it('spells every scheduling policy the same way', () => {
    expect(schedulingPolicy('Guaranteed No Evict')).toBe('GUARANTEED_NO_EVICT');
    expect(schedulingPolicy('GUARANTEED_NO_EVICT')).toBe('GUARANTEED_NO_EVICT');
    expect(schedulingPolicy('max utilization')).toBe('MAX_UTILIZATION');
  });
});

describe('trtllm-bench report values', () => {
  it('reads %.4E issue rates, percents as fractions, None as null, ms totals as seconds', () => {
    const text = [
      '[01/02/2025-03:04:05] [TRT-LLM] [I] ',
      ...section('PYTORCH BACKEND', 'Model:\t\t\tm', 'Quantization:\t\tNone'),
      ...section('WORLD + RUNTIME INFORMATION ', 'EP Size:                None', 'KV Memory Percentage:   36.59%', 'Issue Rate (req/sec):   7.9353E+13'),
      ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec):\t0.7743', 'Total Latency (ms):\t\t1291504.1051'),
    ].join('\n');
    const { runs: [run], diagnostics } = runs(text);
    expect(run?.fields).toMatchObject({
      engine: 'trtllm',
      client: 'trtllm-bench',
      backend: 'pytorch',
      model: 'm',
      quantization: null,
      ep: null,
      kv_cache_free_gpu_memory_fraction: 0.3659,
      issue_rate: 79353000000000,
      request_rate: Infinity,
      request_throughput: 0.7743,
      duration_s: 1291.5041051,
    });
    expect(run?.at.line).toBe(2);
    expect(run?.complete).toBe(true);
    expect(diagnostics).toEqual([]);
  });

  it('keeps a measured issue rate out of request_rate unless every request was issued at once', () => {
    const rate = (printed: string) => runs(section('WORLD + RUNTIME INFORMATION', `Issue Rate (req/sec):   ${printed}`).join('\n')).runs[0]?.fields;
    expect(rate('1.0535E+17')).toMatchObject({ issue_rate: 1.0535e17, request_rate: Infinity });
    expect(rate('3.680275266452667e+18')).toMatchObject({ issue_rate: 3.680275266452667e18, request_rate: Infinity });
    const throttled = rate('2.4981E+00');
    expect(throttled).toMatchObject({ issue_rate: 2.4981 });
    expect(throttled).not.toHaveProperty('request_rate');
  });

  it('converts 0.12 seconds and reads raw Python floats', () => {
    const text = section('STATISTICS', 'Total Latency (seconds):        16.406100739', 'Request Throughput (req/sec):   182.8588064724305').join('\n');
    expect(runs(text).runs[0]?.fields).toMatchObject({ duration_s: 16.406100739, request_throughput: 182.8588064724305 });
  });

  it('takes the spec method from the DECODING STATISTICS title', () => {
    const text = [
      ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0'),
      ...section('DECODING STATISTICS (MTP)', '[AL] AVERAGE: 2.50', '[DAR] AVERAGE: 0.75'),
    ].join('\n');
    expect(runs(text).runs[0]?.fields).toMatchObject({ spec_method: 'mtp', spec_acceptance_length: 2.5, spec_acceptance_rate: 0.75 });
  });

  it('keeps a section whose title is parted from its rules by blank lines (a line of colour codes alone, once cleaned)', () => {
    const text = [RULE, '', '= PYTORCH BACKEND', '   ', RULE, 'Model:\t\t\torg/model-8b', 'Quantization:\t\tFP8', ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0')].join('\n');
    expect(runs(text).runs.map((r) => [r.at.line, r.fields.model, r.fields.quantization, r.fields.request_throughput])).toEqual([[1, 'org/model-8b', 'FP8', 1]]);
    // and by a line another process wrote there, counted
    const log = '[03/14/2025-02:16:14] [TRT-LLM] [I] Starting benchmark...';
    const { runs: found, diagnostics } = runs([RULE, log, '= PYTORCH BACKEND', RULE, 'Model:\t\t\torg/model-8b', ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0')].join('\n'));
    expect(found.map((r) => [r.fields.model, r.fields.request_throughput])).toEqual([['org/model-8b', 1]]);
    expect(diagnostics.filter((d) => d.code === 'block/interleaved-line').map((d) => d.line)).toEqual([2]);
    // a line of unknown kind there: the section is lost, and a warning says so
    const lost = runs([RULE, 'benchmark: done', '= PYTORCH BACKEND', RULE, 'Model:\t\t\torg/model-8b', ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0')].join('\n'));
    expect(lost.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.line} ${d.code}`)).toEqual(['3 parse/syntax']);
  });

  it("reads a report past a server's lines tee'd between a section's title and its lines, or between two lines, counted", () => {
    const clean = [...section('PYTORCH BACKEND', 'Model:\t\t\torg/model-8b', 'Quantization:\t\tFP8'), ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0', 'Total Output Throughput (tokens/sec): 2.0'), RULE];
    const teed = [
      ...clean.slice(0, 3),
      '[TensorRT-LLM][INFO] Number of tokens per block: 32.',
      clean[3],
      'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out',
      '',
      '(APIServer pid=41) INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK',
      ...clean.slice(4, 8),
      '[11/02/2025-14:09:40] [TRT-LLM] [I] Refreshed the MPI local session',
      ...clean.slice(8),
    ].join('\n');
    const before = runs(clean.join('\n'));
    const after = runs(teed);
    expect(after.runs.map((r) => r.fields)).toEqual(before.runs.map((r) => r.fields));
    expect(after.runs.map((r) => [r.fields.model, r.fields.quantization, r.fields.output_throughput, r.complete])).toEqual([['org/model-8b', 'FP8', 2, true]]);
    expect(after.diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      "4 block/interleaved-line 4 interleaved lines (a server's log, a progress bar) skipped in a result block or table",
    ]);
    // after the report's closing rule, a log line still ends it: what follows is not the report's
    const after2 = runs([...clean, 'WARNING 01-05 10:00:10 [serving_chat.py:120] Request timed out', 'Total Output Throughput (tokens/sec): 9.0'].join('\n'));
    expect(after2.runs.map((r) => [r.fields.output_throughput, r.complete])).toEqual([[2, true]]);
  });

  it('reads a report past up to three lines of text between two of its lines, said; four end it', () => {
    const clean = [...section('PYTORCH BACKEND', 'Model:\t\t\torg/model-8b', 'Quantization:\t\tFP8'), ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0', 'Total Output Throughput (tokens/sec): 2.0'), RULE];
    const before = runs(clean.join('\n'));
    // a Python warning's message of two lines (its first line an interleaved one), text of another program
    const text = ['/usr/lib/python3/dist-packages/torch/cuda/__init__.py:128: UserWarning: CUDA initialization', 'If this is not desired, please set os.environ.', 'Setting ds_accelerator to cuda (auto detect)'];
    const gapped = runs([...clean.slice(0, 3), ...text, ...clean.slice(3, 9), 'done in 12 s', ...clean.slice(9)].join('\n'));
    expect(gapped.runs.map((r) => r.fields)).toEqual(before.runs.map((r) => r.fields));
    expect(gapped.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}`)).toEqual(['4 info block/interleaved-line', '5 info block/gap-line', '13 warning block/numbers-in-gap']);
    const four = runs([...clean.slice(0, 8), 'one', 'two', 'three', 'four', ...clean.slice(8)].join('\n'));
    expect(four.runs.map((r) => r.fields.output_throughput)).toEqual([undefined]);
  });

  it("reads a section's header past lines of text between its top rule and its title, said; not a report's closing rule", () => {
    const clean = [...section('PYTORCH BACKEND', 'Model:\t\t\torg/model-8b'), ...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0', 'Total Output Throughput (tokens/sec): 2.0'), RULE];
    const before = runs(clean.join('\n'));
    expect(before.runs).toHaveLength(1);
    // under the report's first rule, and under the rule that closes one section's lines and opens the next's header
    for (const at of [1, 5]) {
      for (const written of [['Setting ds_accelerator to cuda (auto detect)'], ['one', 'two', 'three']]) {
        const gapped = runs([...clean.slice(0, at), ...written, ...clean.slice(at)].join('\n'));
        expect(gapped.runs.map((r) => r.fields), `after line ${at}`).toEqual(before.runs.map((r) => r.fields));
        expect(gapped.diagnostics.map((d) => `${d.line} ${d.code}`), `after line ${at}`).toEqual([`${at + 1} block/gap-line`]);
      }
    }
    // text under a report's closing rule, then another report: two reports, nothing read across
    const two = runs([...clean, 'Setting ds_accelerator to cuda (auto detect)', ...clean].join('\n'));
    expect(two.runs.map((r) => r.fields.output_throughput)).toEqual([2, 2]);
    expect(two.diagnostics.map((d) => d.code)).toEqual([]);
  });

  it('flags a report cut inside its last line (the file ends there without a line break), whatever the value left', () => {
    const report = [...section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0'), ...section('DATASET DETAILS', 'Dataset Path:         /data/synthetic_1024_256.jsonl')];
    const parse = (lines: string[], unterminated: boolean) => grammar.parse({ path: asRelPath('r.txt'), lines, ...(unterminated ? { unterminated } : {}) }, new DiagnosticCollector());
    const cut = parse([...report.slice(0, -1), 'Dataset Path:         /da'], true).filter((r): r is RunRecord => r.kind === 'run');
    expect(cut.map((r) => r.complete)).toEqual([false]);
    // the same lines ending in a line break are a report printed without its closing rule
    expect(parse(report, false).map((r) => r.kind === 'run' && r.complete)).toEqual([true]);
    // and one closed by its rule is whole, however the file ends
    expect(parse([...report, RULE], true).map((r) => r.kind === 'run' && r.complete)).toEqual([true]);
  });

  it('starts a new run at a repeated section title', () => {
    const one = section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 1.0');
    const two = section('PERFORMANCE OVERVIEW ', 'Request Throughput (req/sec): 2.0');
    const found = runs([...one, ...two].join('\n')).runs.map((r) => r.fields.request_throughput);
    expect(found).toEqual([1, 2]);
    // a 0.12 report's STATISTICS then a later one's PERFORMANCE OVERVIEW: two reports' results
    const old = section('STATISTICS', 'Request Throughput (req/sec):   3.0');
    expect(runs([...old, ...two].join('\n')).runs.map((r) => r.fields.request_throughput)).toEqual([3, 2]);
  });

  it('derives no fixed length from dataset statistics printed in e-notation (%9.2e, values ≥ 100000)', () => {
    const dataset = (...rows: string[]) =>
      runs([...section('PERFORMANCE OVERVIEW', 'Request Throughput (req/sec): 1.0000'), ...section('DATASET DETAILS', 'Number of Sequences:  8', '        Input              Output           Seq. Length', '-'.repeat(59), ...rows)].join('\n')).runs[0]?.fields;
    // a varied dataset (130500 … 131400 tokens) whose min and max print alike
    const varied = dataset('MIN:   1.31e+05          1024.0000           1.32e+05', 'MAX:   1.31e+05          1024.0000           1.32e+05');
    expect(varied).toMatchObject({ dataset_min_input_len: 131000, dataset_max_input_len: 131000, dataset_min_seq_len: 132000, output_len: 1024 });
    expect(varied).not.toHaveProperty('input_len');
    // exact cells still give the fixed length
    expect(dataset('MIN:  99999.0000          1024.0000           1.01e+05', 'MAX:  99999.0000          1024.0000           1.01e+05')).toMatchObject({ input_len: 99999, output_len: 1024 });
  });

  it('reads the dataset table logged alone before the benchmark runs as no run (throughput.py, low_latency.py)', () => {
    const table = section('DATASET DETAILS', 'Number of Sequences:  8', '        Input              Output           Seq. Length', '-'.repeat(59), 'MIN:  128.0000  64.0000  192.0000');
    const report = [...section('PYTORCH BACKEND', 'Model:\t\t\tm'), ...section('PERFORMANCE OVERVIEW', 'Request Throughput (req/sec): 2.0000'), ...table];
    const { runs: found, diagnostics } = runs([...table, '[02/03/2026-14:20:20] [TRT-LLM] [I] Setting up throughput benchmark.', ...report].join('\n'));
    expect(found.map((r) => r.fields.request_throughput)).toEqual([2]);
    expect(diagnostics).toEqual([]);
  });

  it('names the PyTorch backend\'s Eagle decoding type EAGLE-3 (llm_args.py: EagleDecodingConfig.spec_dec_mode)', () => {
    expect(decodingMethod('Eagle', 'pytorch')).toBe('eagle3');
    expect(decodingMethod('EAGLE', 'tensorrt')).toBe('eagle');
    expect(decodingMethod('Eagle3', 'pytorch')).toBe('eagle3');
    expect(decodingMethod('MTP', 'pytorch')).toBe('mtp');
    expect(decodingMethod('Draft_Target', 'pytorch')).toBe('draft_model');
  });

  it('never throws on arbitrary text', () => {
    for (const text of ['', '=\n=', `${RULE}\n= \n${RULE}`, `${RULE}\n= X\n[AL] P50: \nMIN: a b c`, '\u0000\u0001']) {
      expect(() => runs(text)).not.toThrow();
    }
  });
});
