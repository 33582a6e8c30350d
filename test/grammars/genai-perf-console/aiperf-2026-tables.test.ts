import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-console/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const TOP = '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓';
const RULE = '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩';
const BOTTOM = '└────────────────────────────┴──────────┴──────────┘';

function table(title: string, rows: string[], stats = ['avg', 'p99']): string[] {
  return [title, TOP, `┃ ${'Metric'.padStart(26)} ┃ ${stats[0]?.padStart(8)} ┃ ${stats[1]?.padStart(8)} ┃`, RULE, ...rows, BOTTOM];
}

const MAIN = table('NVIDIA AIPerf | LLM Metrics', [
  '│       Request Latency (ms) │   800.00 │   950.00 │',
  '│   Request Count (requests) │    30.00 │      N/A │',
]);
const FOOTER = ['CLI Command: aiperf profile --model acme/tiny --concurrency 4', 'Benchmark Duration: 12.00 sec'];

describe('genai-perf-console, AIPerf 2026 tables', () => {
  it('leaves per-archetype copies, server gauges and developer tables out of the run', () => {
    const text = [
      ...MAIN,
      ...table('NVIDIA AIPerf | LLM Metrics: text-only', ['│       Request Latency (ms) │   700.00 │   900.00 │']),
      ...table('NVIDIA AIPerf | Server Metrics: Speculative Decoding', ['│ SGLang Spec Accept Rate (%) │    61.00 │    70.00 │'], ['mean', 'p90']),
      ...table('NVIDIA AIPerf | Experimental Metrics', ['│       Request Latency (ms) │   123.00 │   456.00 │']),
      ...FOOTER,
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    const runs = runFields(records);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ mean_e2el_ms: 800, p99_e2el_ms: 950, completed: 30, duration_s: 12, max_concurrency: 4 });
    expect(Object.keys(runs[0] ?? {}).filter((k) => /text_only|sglang|speculative/.test(k))).toEqual([]);
    expect(diagnostics.filter((d) => d.code === 'table/ignored-block')).toHaveLength(3);
  });

  it('warns when the table a run starts from has no title: the steady-state or an archetype table that lost it reads the same', () => {
    // a log kept from below the main table and the steady-state title
    const [, ...untitled] = table('NVIDIA AIPerf | Steady-State Metrics', ['│       Request Latency (ms) │   700.00 │   900.00 │']);
    const { records, diagnostics } = runGrammar(grammar, [...untitled, ...FOOTER].join('\n'));
    expect(runFields(records)[0]).toMatchObject({ mean_e2el_ms: 700 });
    expect(diagnostics.map((d) => [d.line, d.severity, d.code])).toEqual([[1, 'warning', 'table/untitled']]);
    // titled, nothing to say
    expect(runGrammar(grammar, [...MAIN, ...FOOTER].join('\n')).diagnostics).toEqual([]);
  });

  it('keeps a title with its table across blank lines (a line of colour codes alone, once cleaned)', () => {
    const [title = '', ...frame] = table('localhost:9400 | GPU 1 | NVIDIA H100 80GB HBM3', ['│ NVIDIA GPU Power Usage (W) │   307.50 │   406.00 │']);
    // runGrammar reads lines as given: the colour codes' line as cleaning leaves it, empty
    const text = [...MAIN, title, '', '', ...frame, ...FOOTER].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    const runs = runFields(records);
    expect(runs).toHaveLength(1);
    // the GPU's telemetry is not the run's: its table is left out by its title, not joined to the run untitled
    expect(Object.keys(runs[0] ?? {}).filter((k) => /gpu_power_usage/.test(k))).toEqual([]);
    expect(diagnostics.filter((d) => d.code === 'table/ignored-block').map((d) => d.line)).toEqual([MAIN.length + 1]);
  });

  it('keeps a table whole across blank lines below its top border', () => {
    const [title = '', top = '', ...rest] = table('localhost:9400 | GPU 0 | NVIDIA H100 80GB HBM3', ['│ NVIDIA GPU Power Usage (W) │   307.50 │   406.00 │']);
    const { records, diagnostics } = runGrammar(grammar, [...MAIN, title, top, '', ...rest, ...FOOTER].join('\n'));
    // its rows are the GPU's, left out with their title, not an untitled piece of the run
    expect(Object.keys(runFields(records)[0] ?? {}).filter((k) => /gpu_power_usage/.test(k))).toEqual([]);
    expect(diagnostics.filter((d) => d.code === 'table/ignored-block').map((d) => d.line)).toEqual([MAIN.length + 1]);
  });

  it('reads a table past the lines another process wrote into it, and counts them', () => {
    const log = '(APIServer pid=41) INFO 01-05 10:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s';
    const bar = ' 45%|████▌     | 9/20 [00:04<00:05,  2.10it/s]';
    const [title = '', top = '', header = '', rule = '', first = '', ...rest] = MAIN;
    const [gpuTitle = '', gpuTop = '', ...gpuRest] = table('localhost:9400 | GPU 0 | NVIDIA H100 80GB HBM3', ['│ NVIDIA GPU Power Usage (W) │   307.50 │   406.00 │']);
    const text = [title, log, top, bar, header, rule, first, log, ...rest, gpuTitle, bar, gpuTop, log, ...gpuRest, ...FOOTER].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    const runs = runFields(records);
    expect(runs).toEqual([expect.objectContaining({ mean_e2el_ms: 800, p99_e2el_ms: 950, completed: 30, duration_s: 12 })]);
    expect(Object.keys(runs[0] ?? {}).filter((k) => /gpu_power_usage/.test(k))).toEqual([]);
    expect(diagnostics.filter((d) => d.code === 'block/interleaved-line').map((d) => [d.line, d.message])).toEqual([
      [2, expect.stringMatching(/^3 interleaved lines/)],
      [MAIN.length + 5, expect.stringMatching(/^2 interleaved lines/)],
    ]);
  });

  it('reads a table across a line of unknown kind written into it, and warns of rows such a line broke off a table with no box', () => {
    const [gpuTitle = '', gpuTop = '', ...gpuRest] = table('localhost:9400 | GPU 0 | NVIDIA H100 80GB HBM3', ['│ NVIDIA GPU Power Usage (W) │   307.50 │   406.00 │']);
    const clean = runGrammar(grammar, [...MAIN, gpuTitle, gpuTop, ...gpuRest, ...FOOTER].join('\n'));
    // inside the box: read across (grammars/_shared/table-gaps.ts), the table read as printed
    const inside = runGrammar(grammar, [...MAIN, gpuTitle, gpuTop, 'some other output', ...gpuRest, ...FOOTER].join('\n'));
    expect(runFields(inside.records)).toEqual(runFields(clean.records));
    expect(inside.diagnostics.filter((d) => d.severity === 'warning')).toEqual(clean.diagnostics.filter((d) => d.severity === 'warning'));
    // rows after a line of text with no border above them: they join the run above, with a warning
    const [, , ...rows] = gpuRest;
    const broken = runGrammar(grammar, [...MAIN, gpuTitle, 'some other output', ...rows, ...FOOTER].join('\n'));
    expect(broken.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code)).toContain('table/fragment');
  });

  it('reads a table the run is read from past up to three lines of text between it and its title; warns of its title past more', () => {
    const power = table('GPU Power Efficiency (NVIDIA)', ['│       Total GPU Energy (J) │ 36,000.00 │      N/A │']);
    const [title = '', ...rest] = power;
    const clean = runGrammar(grammar, [...MAIN, ...power, ...FOOTER].join('\n'));
    for (const written of [['benchmark: done'], ['one', '', 'two 2', 'three']]) {
      const { records, diagnostics } = runGrammar(grammar, [...MAIN, title, ...written, ...rest, ...FOOTER].join('\n'));
      expect(runFields(records)).toEqual(runFields(clean.records));
      expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual([...clean.diagnostics.map((d) => `${d.line} ${d.code}`), `${MAIN.length + 2} block/gap-line`]);
    }
    // the run's main title too, at the top of the console
    const [mainTitle = '', ...mainRest] = MAIN;
    const top = runGrammar(grammar, [mainTitle, 'Setting ds_accelerator to cuda (auto detect)', ...mainRest, ...power, ...FOOTER].join('\n'));
    expect(runFields(top.records)).toEqual(runFields(clean.records));
    const { diagnostics } = runGrammar(grammar, [...MAIN, title, 'one', 'two', 'three', 'four', ...rest, ...FOOTER].join('\n'));
    expect(diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.line} ${d.code}`)).toEqual([`${MAIN.length + 1} parse/syntax`]);
    // prose naming a table is no title
    const prose = runGrammar(grammar, [...MAIN, 'The LLM Metrics table above is the run.', ...FOOTER].join('\n'));
    expect(prose.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
  });

  it('reads the Spec Decode table by definition and skips the histogram line below it', () => {
    const text = [
      ...MAIN,
      ...table('NVIDIA AIPerf | LLM Metrics: Spec Decode', [
        '│  Acceptance Length (ratio) │     3.40 │     4.00 │',
        '│  Token-Weighted Acceptance │     3.05 │      N/A │',
        '│             Length (ratio) │          │          │',
        '│  Draft Acceptance Rate (%) │    80.00 │    99.00 │',
        '│   Overall Draft Acceptance │    68.00 │      N/A │',
        '│                   Rate (%) │          │          │',
      ]),
      '  Accepted-draft histogram (% steps):  0: 10%   1: 20%   2: 30%   3: 40%',
      ...FOOTER,
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)[0]).toMatchObject({
      spec_acceptance_length: 3.05,
      spec_acceptance_rate: 0.68,
      spec_decode_acceptance_length: 3.4,
      p99_spec_decode_acceptance_length: 4,
      spec_decode_draft_acceptance_rate: 0.8,
    });
    expect(diagnostics.map((d) => d.code)).not.toContain('parse/unrecognized-lines');
  });
});
