import { describe, expect, it } from 'vitest';
import { multiRowColumns } from '../../../grammars/guidellm-csv/columns.js';
import { grammar } from '../../../grammars/guidellm-csv/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const RUN_INFO = ['Run ID', 'Run Index', 'Profile', 'Requests', 'Backend', 'Environment'].map((name) => ['Run Info', name, '']);
const STATS = ['Mean', 'Median', 'Std Dev', 'Percentiles'];

/** The 2026 CSV (benchmark/outputs/csv.py) writes a `Time to First Output Token` distribution after `Time to First Token`. */
function csv(): string {
  const columns = [
    ...RUN_INFO,
    ['Benchmark', 'Strategy', ''],
    ...STATS.map((s) => ['Time to First Token', 'Successful ms', s]),
    ...STATS.map((s) => ['Time to First Output Token', 'Successful ms', s]),
  ];
  const list = (m: number) => `"[${[0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.1, 1.2, 1.3, 1.5, 1.8].map((f) => f * m).join(', ')}]"`;
  const row = ['r', 0, '{}', '{}', '{}', '{}', 'synchronous', 40, 39, 4, list(40), 700, 690, 70, list(700)];
  return [0, 1, 2].map((k) => columns.map((c) => c[k]).join(',')).concat(row.join(',')).join('\n');
}

describe('guidellm-csv, 2026 columns', () => {
  it('names the time to first output token by its GuideLLM key', () => {
    expect(multiRowColumns(['Time to First Output Token'], ['Successful ms'], ['Median'])).toEqual([
      { kind: 'stat', label: 'Time to First Output Token / Successful ms / Median', metric: 'time_to_first_output_token_ms', status: 'successful', stat: 'median' },
    ]);
  });

  it('reads it as guidellm-json reads the same distribution: *_ttfot_ms', () => {
    const [fields] = runFields(runGrammar(grammar, csv()).records);
    expect(fields).toMatchObject({ mean_ttft_ms: 40, mean_ttfot_ms: 700, median_ttfot_ms: 690, std_ttfot_ms: 70, min_ttfot_ms: 350, p99_ttfot_ms: 1050, max_ttfot_ms: 1260 });
  });
});
