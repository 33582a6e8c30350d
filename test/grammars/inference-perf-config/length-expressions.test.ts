import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/inference-perf-config/index.js';
import { runGrammar } from '../../helpers/grammar-run.js';

function fieldsOf(data: string[]): Record<string, unknown> {
  const text = ['load:', '  type: constant', '  stages:', '  - rate: 1', '    duration: 10', 'server:', '  type: vllm', 'data:', ...data].join('\n');
  const { records } = runGrammar(grammar, text);
  expect(records).toHaveLength(1);
  return records[0]?.kind === 'config' ? records[0].fields : {};
}

describe('inference-perf-config: lengths as expression strings', () => {
  it('reads a clamped Normal as mean, spread and bounds', () => {
    const f = fieldsOf(['  type: synthetic', '  input_distribution: "Min(Max(Normal(600, 50), 20), 900)"']);
    expect(f).toMatchObject({ input_len: 600, input_len_distribution: 'normal', input_len_std_dev: 50, input_len_min: 20, input_len_max: 900 });
  });

  it('reads a bare Normal without bounds, and a Uniform as its range only', () => {
    const f = fieldsOf(['  type: random', '  input_distribution: Normal(256, 32)', "  output_distribution: 'Uniform( 10 , 90 )'"]);
    expect(f).toMatchObject({ input_len: 256, input_len_std_dev: 32, output_len_distribution: 'uniform', output_len_min: 10, output_len_max: 90 });
    expect(f).not.toHaveProperty('input_len_min');
    expect(f).not.toHaveProperty('output_len');
  });

  it('reads the shared-prefix lengths given as expressions', () => {
    const f = fieldsOf(['  type: shared_prefix', '  shared_prefix:', '    system_prompt_len: 500', '    question_len: "Normal(40, 4)"', '    output_len: "Max(Uniform(8, 64), 16)"']);
    expect(f).toMatchObject({ prefix_len: 500, input_len: 40, input_len_std_dev: 4, output_len_distribution: 'uniform', output_len_min: 16, output_len_max: 64 });
  });

  it('guesses nothing for other expressions', () => {
    for (const e of ['LogNormal(6, 0.5)', '128 + Poisson(64)', 'Exponential(1/300)', 'Normal(1, 2', 'Normal(1, 2, 3)']) {
      const f = fieldsOf(['  type: random', `  input_distribution: "${e}"`]);
      expect(Object.keys(f).filter((k) => k.startsWith('input_len'))).toEqual([]);
    }
  });

  it('reads a number written as a string as that length', () => {
    expect(fieldsOf(['  type: shared_prefix', '  shared_prefix:', '    question_len: "75"'])).toMatchObject({ input_len: 75 });
  });
});
