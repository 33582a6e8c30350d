import type { FieldMapBuilder } from '../../src/core/records.js';

/**
 * genai-bench's traffic scenario strings (genai_bench/scenarios/text.py, multimodal.py) → the
 * configured lengths. Only the shapes whose numbers are token lengths are read; the string itself
 * is always kept in `scenario`.
 */
const SHAPES: readonly { readonly re: RegExp; readonly add: (b: FieldMapBuilder, n: number[], line: number) => void }[] = [
  // D(input,output): every request the same lengths
  { re: /^D\((\d+),(\d+)\)$/, add: (b, [i, o], line) => { b.set('input_len', i, line); b.set('output_len', o, line); } },
  // N(mean,stddev)/(mean,stddev): normal draws, input then output
  {
    re: /^N\((\d+),(\d+)\)\/\((\d+),(\d+)\)$/,
    add: (b, [mi, si, mo, so], line) => {
      b.set('input_len', mi, line);
      b.set('output_len', mo, line);
      b.set('input_len_distribution', 'normal', line);
      b.set('output_len_distribution', 'normal', line);
      b.set('input_len_std_dev', si, line);
      b.set('output_len_std_dev', so, line);
    },
  },
  // U(min,max)/(min,max): uniform draws; no fixed length to give `input_len`
  {
    re: /^U\((\d+),(\d+)\)\/\((\d+),(\d+)\)$/,
    add: (b, [mini, maxi, mino, maxo], line) => {
      b.set('input_len_distribution', 'uniform', line);
      b.set('output_len_distribution', 'uniform', line);
      b.set('input_len_min', mini, line);
      b.set('input_len_max', maxi, line);
      b.set('output_len_min', mino, line);
      b.set('output_len_max', maxo, line);
    },
  },
  // U(max_input,max_output): uniform from 1
  {
    re: /^U\((\d+),(\d+)\)$/,
    add: (b, [maxi, maxo], line) => {
      b.set('input_len_distribution', 'uniform', line);
      b.set('output_len_distribution', 'uniform', line);
      b.set('input_len_max', maxi, line);
      b.set('output_len_max', maxo, line);
    },
  },
  // P(prefix,suffix)/output: a shared prefix, each request's own suffix (input_len = the suffix, as inference-perf-config)
  {
    re: /^P\((\d+),(\d+)\)\/(\d+)$/,
    add: (b, [p, s, o], line) => { b.set('prefix_len', p, line); b.set('input_len', s, line); b.set('output_len', o, line); },
  },
  // E(tokens per document): embeddings, `batch_size` documents per request
  { re: /^E\((\d+)\)$/, add: (b, [d], line) => { b.set('document_len', d, line); } },
  // R(tokens per document, tokens per query): re-rank
  { re: /^R\((\d+),(\d+)\)$/, add: (b, [d, q], line) => { b.set('document_len', d, line); b.set('query_len', q, line); } },
];

/** Adds `scenario` and the lengths it configures. */
export function addScenario(b: FieldMapBuilder, scenario: string, line: number): void {
  const s = scenario.trim();
  if (s === '') return;
  b.set('scenario', s, line);
  for (const shape of SHAPES) {
    const m = shape.re.exec(s);
    if (m) {
      shape.add(b, m.slice(1).map(Number), line);
      return;
    }
  }
}
