/**
 * `bench_serving` writes every dataset's knobs into its argument dump and its JSONL line, used or
 * not. Each knob shapes the requests of some datasets only (`python/sglang/benchmark/datasets/`,
 * 2026: each dataset's `from_args`); elsewhere its default (1024) would read as the run's length.
 * - `--random-input-len`, `--random-range-ratio`: the random datasets (`random`, `random-ids`,
 *   2025's `random-image`) and `image`;
 * - `--random-output-len`: those, and `mmmu`'s fixed output length;
 * - `--sharegpt-output-len` (default unset): the fixed output length of `sharegpt`, `custom`,
 *   `openai` and `longbench_v2`, and of the 2026 datasets `agentic-trace` (each round's length) and
 *   `autobench` (over each row's own `output_len` / `max_tokens`; `datasets/agentic_trace.py` and
 *   `datasets/autobench.py`, `from_args`).
 */
const RANDOM_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['image', 'mmmu']);
const RANDOM_INPUT_DATASETS: ReadonlySet<string> = new Set(['image']);
const SHAREGPT_OUTPUT_DATASETS: ReadonlySet<string> = new Set(['sharegpt', 'custom', 'openai', 'longbench_v2', 'agentic-trace', 'autobench']);

/**
 * The embedding backends (`sglang-embedding`, `vllm-embedding`; `python/sglang/benchmark/serving.py`,
 * 2026, e.g. commit 00f9ec47, its `_EMBEDDING_BACKENDS`) post each prompt to `/v1/embeddings`: a
 * request generates nothing (`output_len = 0`), whatever output length the dataset planned.
 */
export function isEmbeddingBackend(backend: unknown): boolean {
  return typeof backend === 'string' && /-embedding$/.test(backend);
}

/** The output-length knobs: no length of an embedding run's (it generates nothing). */
const OUTPUT_LEN_KNOBS: ReadonlySet<string> = new Set(['random_output_len', 'sharegpt_output_len']);

export function datasetKnobApplies(key: string, dataset: string | null, backend?: unknown): boolean {
  if (OUTPUT_LEN_KNOBS.has(key) && isEmbeddingBackend(backend)) return false;
  const name = dataset ?? '';
  if (name === '') return true;
  if (key === 'random_output_len') return name.startsWith('random') || RANDOM_OUTPUT_DATASETS.has(name);
  if (key.startsWith('random_')) return name.startsWith('random') || RANDOM_INPUT_DATASETS.has(name);
  if (key === 'sharegpt_output_len') return SHAREGPT_OUTPUT_DATASETS.has(name);
  return true;
}
