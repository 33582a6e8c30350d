import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/evalscope-perf-console/index.js';
import { readBoxTables } from '../../../grammars/evalscope-perf-console/box-table.js';
import { cellNumber, withoutLogPrefix } from '../../../grammars/evalscope-perf-console/text.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const detect = (head: string) => grammar.detect({ path: asRelPath('x.log'), head }).score;

const GRID_2025 = [
  '2025-06-10 09:30:30,912 - evalscope - INFO - ',
  'Benchmarking summary:',
  '+----------------------------------+---------+',
  '| Key                              |   Value |',
  '+==================================+=========+',
  '| Time taken for tests (s)         | 10.5    |',
  '+----------------------------------+---------+',
  '| Number of concurrency            |  4      |',
  '+----------------------------------+---------+',
  '| Succeed requests                 | 40      |',
  '+----------------------------------+---------+',
  '| Average latency (s)              |  1.0125 |',
  '+----------------------------------+---------+',
  '| Average output tokens per request| 100.5   |',
  '+----------------------------------+---------+',
].join('\n');

describe('evalscope-perf-console', () => {
  it('detects the per-run table, the report, and the start of a run log; not other tables', () => {
    expect(detect(GRID_2025)).toBeGreaterThan(0.5);
    expect(detect('╭───╮\n│ Performance Test Summary Report │\n╰───╯')).toBeGreaterThan(0.5);
    expect(detect('2026-01-05 10:15:00,131 - evalscope - INFO - Starting benchmark with args: \n{"parallel": 8}')).toBeGreaterThan(0);
    expect(detect('+-----+\n| Key | Value |\n+=====+')).toBe(0);
    expect(detect('Benchmarking summary: all good')).toBe(0);
  });

  it('detects and reads the per-run table past up to three lines written between it and its title', () => {
    const lines = GRID_2025.split('\n');
    const clean = runFields(runGrammar(grammar, GRID_2025).records);
    for (const written of [['Setting ds_accelerator to cuda (auto detect)'], ['one', '', 'three']]) {
      const text = [...lines.slice(0, 2), ...written, ...lines.slice(2)].join('\n');
      expect(detect(text)).toBeGreaterThan(0.5);
      expect(runFields(runGrammar(grammar, text).records)).toEqual(clean);
    }
    expect(detect([...lines.slice(0, 2), 'one', 'two', 'three', 'four', ...lines.slice(2)].join('\n'))).toBe(0);
  });

  it('reads the summary through evalscope-perf-json’s keys: seconds to ms, totals from the successful requests', () => {
    const [run] = runFields(runGrammar(grammar, GRID_2025).records);
    expect(run).toMatchObject({ client: 'evalscope-perf', duration_s: 10.5, max_concurrency: 4, completed: 40, mean_e2el_ms: 1012.5, total_output_tokens: 4020 });
  });

  it('splits 2026’s Total / Success / Failed row and skips its group rows', () => {
    const text = [
      'Benchmarking summary:',
      '┌──────────────────────────┬─────────────┐',
      '│ Metric                   │       Value │',
      '├──────────────────────────┼─────────────┤',
      '│ ── General ──            │             │',
      '│ Test Duration (s)        │       12.00 │',
      '│ Total / Success / Failed │ 10 / 9 / 1  │',
      '│ Avg Latency (s)          │        1.25 │',
      '│ TTFT (ms)                │       40.50 │',
      '└──────────────────────────┴─────────────┘',
    ].join('\n');
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run).toMatchObject({ num_requests: 10, completed: 9, failed: 1, mean_e2el_ms: 1250, mean_ttft_ms: 40.5 });
  });

  it('reads the speculative-decoding estimates as the JSON holds them: tokens per iteration, and the rate printed in % as a fraction', () => {
    const text = [
      'Benchmarking summary:',
      '┌──────────────────────────┬─────────────┐',
      '│ Metric                   │       Value │',
      '├──────────────────────────┼─────────────┤',
      '│ Test Duration (s)        │       12.00 │',
      '│ Output Throughput (tok/s)│      520.41 │',
      '│ ── Speculative ──        │             │',
      '│ Decoded Tok/Iter         │        3.08 │',
      '│ Spec. Accept Rate        │       67.5% │',
      '└──────────────────────────┴─────────────┘',
    ].join('\n');
    const [run] = runFields(runGrammar(grammar, text).records);
    expect(run).toMatchObject({ client_spec_acceptance_length: 3.08, client_spec_acceptance_rate: 0.675 });
    // a fraction printed as one stays one
    expect(runFields(runGrammar(grammar, text.replace('67.5%', '0.675')).records)[0]).toMatchObject({ client_spec_acceptance_rate: 0.675 });
  });

  it('joins rich header lines cell by cell and numbers sections', () => {
    const [t] = readBoxTables([
      '┏━━━━━━┳━━━━━━━━━┓',
      '┃      ┃     Avg ┃',
      '┃Conc. ┃ Lat.(s) ┃',
      '┡━━━━━━╇━━━━━━━━━┩',
      '│    1 │   1.230 │',
      '├──────┼─────────┤',
      '│    4 │   1.401 │',
      '└──────┴─────────┘',
    ]);
    expect(t?.header).toEqual(['Conc.', 'Avg Lat.(s)']);
    expect(t?.rows.map((r) => [r.cells[0], r.section])).toEqual([['1', 0], ['4', 1]]);
  });

  it('reads printed numbers: percents, thousands, nan and INF', () => {
    expect(cellNumber('98.8%')).toBe(98.8);
    expect(cellNumber('1,533.20')).toBe(1533.2);
    expect(cellNumber('nan')).toBeUndefined();
    expect(cellNumber('INF')).toBe(Infinity);
    expect(cellNumber('-')).toBeUndefined();
    expect(cellNumber('outputs/x.db')).toBeNull();
    expect(withoutLogPrefix('2025-01-01 12:00:00,000 - evalscope - INFO - hello')).toBe('hello');
  });

  it('resolves a rich header cut with an ellipsis by the unit of the table’s other latency headers', () => {
    const text = [
      '┏━━━━━━┳━━━━━━━━━┳━━━━━━━━┓',
      '┃      ┃     Avg ┃    P99 ┃',
      '┃Conc. ┃ TPOT(s) ┃ TPOT(… ┃',
      '┡━━━━━━╇━━━━━━━━━╇━━━━━━━━┩',
      '│    2 │   0.004 │  0.005 │',
      '└──────┴─────────┴────────┘',
    ].join('\n');
    expect(runFields(runGrammar(grammar, text).records)[0]).toMatchObject({ max_concurrency: 2, mean_tpot_ms: 4, p99_tpot_ms: 5 });
  });
});
