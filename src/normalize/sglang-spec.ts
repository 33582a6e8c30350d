import type { FieldMapBuilder } from '../core/records.js';

/**
 * SGLang configures speculation with three knobs (steps, EAGLE top-k, draft tokens); schema.md
 * maps `num_spec_tokens` to `--speculative-num-draft-tokens`, the number of tokens verified per
 * step. The three knobs stay in their own columns too.
 */
export function settleSglangSpec(builder: FieldMapBuilder): void {
  const k = builder.fields.spec_num_draft_tokens;
  if (typeof k === 'number' && !builder.has('num_spec_tokens')) builder.set('num_spec_tokens', k, builder.lines.spec_num_draft_tokens ?? 0);
}
