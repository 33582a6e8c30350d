/**
 * `bench_serving` writes every dataset's knobs into its argument dump and its JSONL line, used or
 * not. `--random-input-len`, `--random-output-len`, `--random-range-ratio` shape the requests of the
 * random datasets (`random`, `random-ids`) and of `image` only (serving.py's help: "used only for
 * random and image dataset"); `--sharegpt-output-len` those of ShareGPT only. Elsewhere their
 * defaults (1024) would read as the run's lengths.
 */
export function datasetKnobApplies(key: string, dataset: string | null): boolean {
  const name = dataset ?? '';
  if (key.startsWith('random_')) return name === '' || name.startsWith('random') || name === 'image';
  if (key === 'sharegpt_output_len') return name === '' || name === 'sharegpt';
  return true;
}
