import { lookupTable } from '../../src/core/cells.js';
import { lengthKnobApplies } from '../../src/normalize/flags.js';

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
 * - the knobs named for their dataset (2026 `benchmark/serving.py`, 00f9ec47; `datasets/__init__.py`
 *   with `speed-bench` and `DATASET_RESULT_ARG_KEYS`): `--speed-bench-*` for `speed-bench` only,
 *   `--gsp-*` for `generated-shared-prefix` only (`datasets/speed_bench.py`,
 *   `datasets/generated_shared_prefix.py`, `from_args`), likewise `--image-*` (`image`),
 *   `--mooncake-*` (`mooncake`) and `--agentic-*` (`agentic-trace`); for their dataset some are the
 *   run's lengths (`DATASET_KNOB_COLUMNS`), elsewhere their defaults say nothing of the run.
 */

/**
 * The embedding backends (`sglang-embedding`, `vllm-embedding`; `python/sglang/benchmark/serving.py`,
 * 2026, e.g. commit 00f9ec47, its `_EMBEDDING_BACKENDS`) post each prompt to `/v1/embeddings`: a
 * request generates nothing (`output_len = 0`), whatever output length the dataset planned.
 */
export function isEmbeddingBackend(backend: unknown): boolean {
  return typeof backend === 'string' && /-embedding$/.test(backend);
}

/** The output-length knobs: no length of an embedding run's (it generates nothing). */
const OUTPUT_LEN_KNOBS: ReadonlySet<string> = new Set(['random_output_len', 'sharegpt_output_len', 'speed_bench_output_len', 'gsp_output_len']);

/** Knob-name prefixes of the knobs that belong to one dataset, with that dataset. */
const OWN_DATASET_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['speed_bench_', 'speed-bench'],
  ['gsp_', 'generated-shared-prefix'],
  ['image_', 'image'],
  ['mooncake_', 'mooncake'],
  ['agentic_', 'agentic-trace'],
];

/**
 * A dataset's own knobs that are the run's lengths, under the columns other shared-prefix readers
 * use (inference-perf-config): `speed-bench` sends every request with `--speed-bench-output-len`
 * tokens (default 512); `generated-shared-prefix` sends `--gsp-num-groups` system prompts of
 * `--gsp-system-prompt-len` tokens, each followed by `--gsp-prompts-per-group` questions of
 * `--gsp-question-len` tokens (`input_len` is then the question's, as with `prefix_len`), each
 * answered with `--gsp-output-len` tokens. The others keep their names (`gsp_range_ratio`,
 * `gsp_num_turns`, `speed_bench_category`, …).
 */
const DATASET_KNOB_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = lookupTable({
  'speed-bench': lookupTable({ speed_bench_output_len: 'output_len' }),
  'generated-shared-prefix': lookupTable({
    gsp_output_len: 'output_len',
    gsp_question_len: 'input_len',
    gsp_system_prompt_len: 'prefix_len',
    gsp_num_groups: 'prefix_num_groups',
    gsp_prompts_per_group: 'prefix_users_per_group',
  }),
});

/**
 * The column a dataset knob that applies (`datasetKnobApplies`) is read into: its run-length column
 * for the dataset it belongs to, else its own name (a dump naming no dataset renames nothing).
 */
export function datasetKnobColumn(key: string, dataset: string | null): string {
  const own = dataset === null ? undefined : DATASET_KNOB_COLUMNS[dataset];
  return own?.[key] ?? key;
}

export function datasetKnobApplies(key: string, dataset: string | null, backend?: unknown): boolean {
  if (OUTPUT_LEN_KNOBS.has(key) && isEmbeddingBackend(backend)) return false;
  const name = dataset ?? '';
  if (name === '') return true;
  const length = lengthKnobApplies(key, name);
  if (length !== undefined) return length;
  for (const [prefix, owner] of OWN_DATASET_PREFIXES) if (key.startsWith(prefix)) return name === owner;
  // generated-shared-prefix sends its groups × prompts per group, whatever `--num-prompts` says
  if (key === 'num_prompts') return name !== 'generated-shared-prefix';
  return true;
}
