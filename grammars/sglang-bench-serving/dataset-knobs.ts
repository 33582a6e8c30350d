/**
 * `bench_serving` writes every dataset's knobs into its argument dump and its JSONL line, used or
 * not. Each knob shapes the requests of some datasets only (`python/sglang/benchmark/datasets/`,
 * 2026: each dataset's `from_args`); elsewhere its default (1024) would read as the run's length.
 * - `--random-input-len`, `--random-range-ratio`: the random datasets (`random`, `random-ids`,
 *   2025's `random-image`) and `image`;
 * - `--random-output-len`: those, and `mmmu`'s fixed output length;
 * - `--sharegpt-output-len` (default unset): the fixed output length of `sharegpt`, `custom`,
 *   `openai` and `longbench_v2`.
 */
const RANDOM_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['image', 'mmmu']);
const RANDOM_INPUT_DATASETS: ReadonlySet<string> = new Set(['image']);
const SHAREGPT_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['sharegpt', 'custom', 'openai', 'longbench_v2']);

export function datasetKnobApplies(key: string, dataset: string | null): boolean {
  const name = dataset ?? '';
  if (name === '') return true;
  if (key === 'random_output_len') return name.startsWith('random') || RANDOM_OUTPUT_DATASETS.has(name);
  if (key.startsWith('random_')) return name.startsWith('random') || RANDOM_INPUT_DATASETS.has(name);
  if (key === 'sharegpt_output_len') return SHAREGPT_OUTPUT_DATASETS.has(name);
  return true;
}
