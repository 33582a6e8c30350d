import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-console/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const TOP = '┏━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓';
const RULE = '┡━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩';
const BOTTOM = '└────────────────────┴──────────┴──────────┘';

function table(title: string, first: string, rows: string[]): string[] {
  return [title, TOP, `┃ ${first.padStart(18)} ┃      avg ┃      p99 ┃`, RULE, ...rows, BOTTOM];
}

describe('genai-perf-console', () => {
  it('detects by content only', () => {
    const path = asRelPath('x.txt');
    expect(grammar.detect({ path, head: '   NVIDIA AIPerf | LLM Metrics  \n┏━┓' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '┃ Statistic ┃ avg ┃ min ┃' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: '============ Serving Benchmark Result ============' }).score).toBe(0);
    expect(grammar.detect({ path, head: '| Metric | avg |' }).score).toBe(0);
  });

  it('joins wrapped labels and starts a new run at each main table', () => {
    const text = [
      ...table('NVIDIA AIPerf | LLM Metrics', 'Metric', [
        '│ Time to First │ 1,234.50 │ 2,000.00 │',
        '│     Token (ms) │          │          │',
        '│  Request Count │    12.00 │      N/A │',
        '│     (requests) │          │          │',
      ]),
      ...table('NVIDIA AIPerf | LLM Metrics: Effective', 'Metric', ['│ Output Token │   500.00 │      N/A │', '│   Throughput │          │          │']),
      'CLI Command: aiperf profile --model m1 --concurrency 2',
      '--request-rate 5',
      'Benchmark Duration: 1,200.5 sec',
      ...table('NVIDIA GenAI-Perf | LLM Metrics', 'Statistic', ['│ Request Latency (s) │ 1.50 │ 2.25 │']),
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([
      {
        mean_ttft_ms: 1234.5,
        p99_ttft_ms: 2000,
        completed: 12,
        effective_output_throughput: 500,
        model: 'm1',
        max_concurrency: 2,
        request_rate: 5,
        duration_s: 1200.5,
        client: 'aiperf',
      },
      { mean_e2el_ms: 1500, p99_e2el_ms: 2250, client: 'genai-perf' },
    ]);
    expect(records.map((r) => r.at.line)).toEqual([1, 20]);
    expect(diagnostics).toEqual([]);
  });

  describe("a run's model and load point: what the tool says it ran, then the command pasted above it, then its artifacts folder", () => {
    const THROUGHPUT = table('NVIDIA GenAI-Perf | LLM Metrics', 'Statistic', ['│ Request throughput (per sec) │ 3.00 │ N/A │']);
    const AIPERF = table('NVIDIA AIPerf | LLM Metrics', 'Metric', ['│ Request Throughput │ 3.00 │ N/A │', '│   (requests/sec) │          │          │']);
    const fields = (lines: string[]) => runFields(runGrammar(grammar, lines.join('\n')).records);

    it("reads the Perf Analyzer command GenAI-Perf logs before a run, over a pasted command's values", () => {
      expect(
        fields([
          'genai-perf profile -m acme/meant --concurrency 8',
          "2024-10-14 22:43 [INFO] genai_perf.wrapper:163 - Running Perf Analyzer : 'perf_analyzer -m acme/ran --async -i http --concurrency-range 2 --service-kind openai'",
          ...THROUGHPUT,
        ]),
      ).toEqual([{ request_throughput: 3, model: 'acme/ran', max_concurrency: 2, client: 'genai-perf' }]);
      // a sweep's range is no one run's value
      expect(fields(["[INFO] genai_perf.wrapper:163 - Running Perf Analyzer : 'perf_analyzer -m m --concurrency-range 1:8:2'", ...THROUGHPUT])).toEqual([{ request_throughput: 3, model: 'm', client: 'genai-perf' }]);
    });

    it("gives AIPerf's echo of its command precedence over the one pasted above the run", () => {
      const echoed = fields(['aiperf profile --model acme/x --concurrency 5', ...AIPERF, 'CLI Command: aiperf profile --model acme/x --concurrency 1']);
      expect(echoed[0]).toMatchObject({ model: 'acme/x', max_concurrency: 1, client: 'aiperf' });
    });

    it('follows a pasted command over its backslashes only, from a bare `genai-perf \\` line too', () => {
      expect(fields(['genai-perf \\', '  profile \\', '  -m ensemble \\', '  --backend tensorrtllm \\', '  --concurrency 4', ...THROUGHPUT])).toEqual([
        { request_throughput: 3, model: 'ensemble', backend: 'tensorrtllm', max_concurrency: 4, client: 'genai-perf' },
      ]);
      // a line without a trailing backslash ends the command: the shell never passed the next line's flags
      expect(fields(['aiperf profile \\', '  --model acme/x \\', '  --url http://localhost:8000', '  --concurrency 5 \\', '  --request-count 10', ...AIPERF, 'Benchmark Duration: 10 sec'])).toEqual([
        { request_throughput: 3, model: 'acme/x', duration_s: 10, client: 'aiperf' },
      ]);
    });

    it('leaves out values a pasted script left to its shell variables', () => {
      expect(fields(['MODEL="acme/x"', 'genai-perf profile \\', '  --model ${MODEL} \\', '  --tokenizer $TOKENIZER \\', '  --concurrency $(nproc)', ...THROUGHPUT])).toEqual([
        { request_throughput: 3, client: 'genai-perf' },
      ]);
    });

    it('takes the load point from the artifacts folder a run is saved in when nothing else gives it', () => {
      expect(fields([...THROUGHPUT, 'CSV Export: artifacts/acme_x-openai-chat-concurrency16/profile_export_genai_perf.csv'])).toEqual([{ request_throughput: 3, max_concurrency: 16, client: 'genai-perf' }]);
      expect(fields([...THROUGHPUT, '2024-10-14 22:44 [INFO] genai_perf.export_data.json_exporter:62 - Generating artifacts/m-openai-chat-request_rate2.5/profile_export_genai_perf.json'])).toEqual([
        { request_throughput: 3, request_rate: 2.5, client: 'genai-perf' },
      ]);
      expect(fields(['genai-perf profile -m m --concurrency 4', ...THROUGHPUT, 'CSV Export: artifacts/m-openai-chat-concurrency16/x.csv'])[0]).toMatchObject({ max_concurrency: 4 });
    });
  });

  it('applies a pasted shell command to the table after it', () => {
    const text = ['$ genai-perf profile -m acme/x --concurrency 16', ...table('LLM Metrics', 'Statistic', ['│ Request throughput (per sec) │ 3.00 │ N/A │'])].join('\n');
    expect(runFields(runGrammar(grammar, text).records)).toEqual([{ model: 'acme/x', max_concurrency: 16, request_throughput: 3, client: 'genai-perf' }]);
  });

  it('reports cut cells and missing borders but keeps the good values', () => {
    const text = ['NVIDIA GenAI-Perf | LLM Metrics', TOP, '┃ Statistic ┃ avg ┃ p99 ┃', RULE, '│ Inter Token Latency (ms) │ 4.00 │ 11.… │'].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([{ mean_itl_ms: 4, client: 'genai-perf' }]);
    expect(records[0]?.kind === 'run' && records[0].complete).toBe(false);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['1 block/truncated', '5 table/bad-cell']);
  });

  it('flags runs whose footer is missing: AIPerf duration, SDK 24.06 throughput lines', () => {
    const aiperf = table('NVIDIA AIPerf | LLM Metrics', 'Metric', ['│ Request Latency (ms) │ 5.00 │ 6.00 │']).join('\n');
    const sdk = [...table('LLM Metrics', 'Statistic', ['│ Request latency (ns) │ 5,000,000 │ 6,000,000 │']), 'Output token throughput (per sec): 12.5'].join('\n');
    for (const [text, missing] of [
      [aiperf, 'no Benchmark Duration line after the tables'],
      [sdk, 'no throughput lines after the table'],
    ] as const) {
      const { records, diagnostics } = runGrammar(grammar, text);
      expect(records[0]?.kind === 'run' && records[0].complete).toBe(false);
      expect(diagnostics.map((d) => d.message)).toEqual([`result block ends before its footer (${missing}): kept as a partial run`]);
    }
  });

  it('skips tables that are not metrics and joins untitled pieces to the run', () => {
    const text = [
      ...table('NVIDIA GenAI-Perf | LLM Metrics', 'Statistic', ['│ Request Latency (ms) │ 5.00 │ 6.00 │']),
      ...table('NVIDIA AIPerf | GPU Telemetry', 'Metric', ['│ GPU Power Usage (W) │ 300.00 │ 310.00 │']),
      TOP,
      '│ Request Count (count) │ 9.00 │ N/A │',
      BOTTOM,
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([{ mean_e2el_ms: 5, p99_e2el_ms: 6, completed: 9, client: 'genai-perf' }]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['7 table/ignored-block', '13 parse/syntax']);
  });

  it('keeps no empty runs from garbage, and says why', () => {
    const { records, diagnostics } = runGrammar(grammar, '┃┃┃\n│\n└─┘\nLLM Metrics\n│ x │');
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['1 block/truncated', '1 table/no-rows', '2 parse/unrecognized-lines', '4 parse/syntax', '5 block/truncated', '5 parse/syntax', '5 table/fragment']);
  });

  it('reads AIPerf goodput as request_goodput and its adjusted percentile columns apart', () => {
    const text = [
      '   NVIDIA AIPerf | LLM Metrics',
      '┏━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━┓',
      '┃                 Metric ┃    avg ┃ adj_p99 ┃',
      '┡━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━┩',
      '│   Request Latency (ms) │ 100.00 │  900.00 │',
      '│ Goodput (requests/sec) │   1.50 │     N/A │',
      '└────────────────────────┴────────┴─────────┘',
      'Benchmark Duration: 4.00 sec',
    ].join('\n');
    expect(runFields(runGrammar(grammar, text).records)).toEqual([
      { mean_e2el_ms: 100, adj_p99_e2el_ms: 900, request_goodput: 1.5, duration_s: 4, client: 'aiperf' },
    ]);
  });
});
