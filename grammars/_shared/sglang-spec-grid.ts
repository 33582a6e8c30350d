/**
 * One grid point of SGLang's `scripts/playground/bench_speculative.py` (batch size × `--steps` ×
 * `--topk` × `--num_draft_tokens`) → the canonical columns. Shared by the grammar of the JSONL it
 * appends (`sglang-bench-speculative-jsonl`) and the reader of its console, the `Start i=N:` /
 * `Finish i=N:` lines around its `bench_serving` blocks (`sglang-bench-serving`).
 */
import type { FieldMapBuilder } from '../../src/core/records.js';
import { settleSglangSpec } from '../../src/normalize/sglang-spec.js';

/** The client of a grid point's run, whichever of its outputs it was read from. */
export const SPEC_GRID_CLIENT = 'sglang-bench-speculative';

/** The grid point's three speculation knobs (SGLang server flags) → the canonical SGLang columns. */
export const SPEC_GRID_KNOBS: Readonly<Record<SpecGridKnob, string>> = {
  steps: 'spec_num_steps',
  topk: 'spec_eagle_topk',
  num_draft_tokens: 'spec_num_draft_tokens',
};

export type SpecGridKnob = 'steps' | 'topk' | 'num_draft_tokens';

/** A value of the grid point and the line it came from. */
export interface GridValue {
  readonly value: number;
  readonly line: number;
}

/** What the script states of a grid point: its batch size and knobs (any may be missing). */
export type SpecGridPoint = Partial<Record<'batch_size' | SpecGridKnob, GridValue | undefined>>;

/**
 * Sets the grid point's columns: the batch size as the batch, the client's concurrency cap and the
 * server's `--max-running-requests` at once; all three knobs 0 (the script starts that server
 * without speculative flags) as `spec_method` = `none`, else the knobs in their SGLang columns and
 * `num_spec_tokens` by `settleSglangSpec`. Values already set stay (the builder keeps the first).
 * Returns whether the point speculates: false for the baseline, true when a knob is above 0, null
 * when the point states no knob.
 */
export function addSpecGridPoint(builder: FieldMapBuilder, point: SpecGridPoint): boolean | null {
  const batch = point.batch_size;
  if (batch !== undefined) {
    builder.set('batch_size', batch.value, batch.line);
    builder.set('max_concurrency', batch.value, batch.line);
    builder.set('max_num_seqs', batch.value, batch.line);
  }
  const knobs = (Object.keys(SPEC_GRID_KNOBS) as SpecGridKnob[]).flatMap((k) => (point[k] ? [[k, point[k]] as const] : []));
  if (knobs.length === 0) return null;
  const speculative = knobs.some(([, v]) => v.value > 0);
  if (!speculative) {
    builder.set('spec_method', 'none', (point.steps ?? knobs[0]?.[1])?.line ?? 0);
    return false;
  }
  for (const [k, v] of knobs) builder.set(SPEC_GRID_KNOBS[k], v.value, v.line);
  settleSglangSpec(builder);
  return true;
}

/**
 * The grid point's speed (`acc_length / step_time`: the tokens per second each sequence of the
 * batch gets) and the 20th percentile of the server's decode-step times at this batch size, in ms.
 */
export function addSpecGridSpeed(builder: FieldMapBuilder, speed: GridValue | undefined, stepTimeMs: GridValue | undefined): void {
  if (stepTimeMs !== undefined) builder.set('p20_step_time_ms', stepTimeMs.value, stepTimeMs.line);
  if (speed !== undefined) builder.set('output_speed_per_user', speed.value, speed.line);
}
