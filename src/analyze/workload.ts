import type { FieldValue } from '../core/types.js';

type Row = Readonly<Record<string, FieldValue>>;

/**
 * What a run measured, beside the configuration it names: the prompts it sent (input tokens per
 * completed request) and whether the server drafted tokens for it (speculative-decoding counts or
 * rates in its results). Two runs of one named configuration that measured different workloads are
 * not repeats (a write-up's "without / with `--random-prefix-len 12000`" under one heading: 16 M and
 * 28 M input tokens for the same requests), and a baseline of another workload is no baseline:
 * what the columns do not tell apart, the measurements do.
 */
export interface Workload {
  readonly inputPerRequest: number | null;
  readonly speculative: boolean;
}

/**
 * How far apart two runs' input tokens per request may be and still be one workload: repeats of a
 * ShareGPT run with another seed draw other prompts (100 prompts: a few percent either way), a
 * random dataset's `--random-range-ratio` lengths vary about their mean; a longer prefix, another
 * input length or dataset is far beyond.
 */
const INPUT_TOLERANCE = 0.25;

/** The columns whose value says the server drafted tokens for the run. */
const SPECULATIVE_MEASURES = ['spec_acceptance_rate', 'spec_acceptance_length', 'spec_draft_tokens', 'spec_accepted_tokens', 'spec_num_drafts'];

export function workloadOf(row: Row): Workload {
  const input = row.total_input_tokens;
  const completed = row.completed;
  const inputPerRequest = typeof input === 'number' && typeof completed === 'number' && completed > 0 && input > 0 ? input / completed : null;
  const speculative = SPECULATIVE_MEASURES.some((c) => {
    const v = row[c];
    return typeof v === 'number' && v > 0;
  });
  return { inputPerRequest, speculative };
}

/** Input tokens per request within INPUT_TOLERANCE of each other, or unknown on either side. */
export function sameInput(a: Workload, b: Workload): boolean {
  if (a.inputPerRequest === null || b.inputPerRequest === null) return true;
  const larger = Math.max(a.inputPerRequest, b.inputPerRequest);
  return Math.abs(a.inputPerRequest - b.inputPerRequest) <= INPUT_TOLERANCE * larger;
}

/** Repeats of one measurement: the same input, and speculative decoding measured in both or neither. */
export function sameMeasurement(a: Workload, b: Workload): boolean {
  return a.speculative === b.speculative && sameInput(a, b);
}

/** How two workloads differ, for a diagnostic: `input tokens per request 160 vs 280`, `speculative decoding measured in one only`. */
export function workloadDifference(a: Workload, b: Workload): string {
  if (!sameInput(a, b)) return `input tokens per request ${show(a.inputPerRequest)} vs ${show(b.inputPerRequest)}`;
  return a.speculative === b.speculative ? 'the same workload' : 'speculative decoding measured in one and not the other';
}

const show = (n: number | null): string => (n === null ? 'unknown' : String(Math.round(n * 10) / 10));

/**
 * `rows` (one named configuration's runs) split into groups of repeats of one measurement, each
 * in `rows`' order; a run joins the first group whose first run it repeats.
 */
export function repeatGroups<R extends Row>(rows: readonly R[]): R[][] {
  const groups: { workload: Workload; rows: R[] }[] = [];
  for (const r of rows) {
    const w = workloadOf(r);
    const g = groups.find((x) => sameMeasurement(x.workload, w));
    if (g) g.rows.push(r);
    else groups.push({ workload: w, rows: [r] });
  }
  return groups.map((g) => g.rows);
}
