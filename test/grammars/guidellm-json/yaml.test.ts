import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/guidellm-json/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** `benchmarks.yaml` as PyYAML's `yaml.dump` writes GuideLLM's report: block style, keys sorted. */
const YAML = [
  'benchmarks:',
  '- config:',
  '    backend:',
  '      model: acme/yaml-7b',
  '    strategy:',
  '      streams: 16',
  '      type_: concurrent',
  '  metrics:',
  '    request_latency:',
  '      successful:',
  '        mean: 2.5',
  '        median: 2.25',
  '    request_totals:',
  '      errored: 1',
  '      incomplete: 0',
  '      successful: 40',
  '      total: 41',
  '    time_to_first_token_ms:',
  '      successful:',
  '        mean: 80.5',
  '        percentiles:',
  '          p95: 130.0',
  '          p999: .nan',
  '  requests:',
  '    successful:',
  '    - request_id: a1',
  '      output_tokens: 12',
  '    - request_id: a2',
  '      output_tokens: 14',
  '  scheduler_metrics:',
  '    measure_end_time: 1772000060.0',
  '    measure_start_time: 1772000000.0',
  '  type_: generative_benchmark',
  'metadata:',
  '  version: 2',
];

describe('guidellm-json, the YAML report', () => {
  it('detects benchmarks.yaml by its first key and GuideLLM type_ keys, and no other YAML', () => {
    const score = (head: string) => grammar.detect({ path: asRelPath('benchmarks.yaml'), head }).score;
    expect(score(`${YAML.join('\n')}\n`)).toBeGreaterThan(0);
    expect(score('load:\n  type: constant\n  stages:\n  - rate: 1\n    duration: 30\n')).toBe(0);
    expect(score('benchmarks:\n- name: nightly\n  script: run.sh\n')).toBe(0);
  });

  it('reads it as benchmarks.json, each value at the line of its key', () => {
    const { records, diagnostics } = runGrammar(grammar, YAML.join('\n'));
    expect(runFields(records)).toEqual([
      {
        model: 'acme/yaml-7b', strategy: 'concurrent', max_concurrency: 16, duration_s: 60,
        mean_e2el_ms: 2500, median_e2el_ms: 2250, mean_ttft_ms: 80.5, p95_ttft_ms: 130,
        completed: 40, failed: 1, incomplete: 0, client: 'guidellm',
      },
    ]);
    const [run] = records;
    expect(run?.kind === 'run' ? run.lines : null).toMatchObject({ strategy: 2, mean_e2el_ms: 9, mean_ttft_ms: 18, completed: 13 });
    expect(diagnostics).toEqual([]);
  });

  it('keeps a benchmark cut before its last keys as a partial run, with a warning', () => {
    const { records, diagnostics } = runGrammar(grammar, YAML.slice(0, 27).join('\n'));
    expect(records.map((r) => (r.kind === 'run' ? r.complete : null))).toEqual([false]);
    expect(runFields(records)[0]).toMatchObject({ strategy: 'concurrent', mean_ttft_ms: 80.5 });
    expect(diagnostics.map((d) => d.code)).toEqual(['block/truncated']);
  });
});
