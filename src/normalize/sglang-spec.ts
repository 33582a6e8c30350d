import type { FieldMapBuilder } from '../core/records.js';
import type { PyValue } from '../parse/python-repr.js';
import { canonicalFlag } from './flags.js';

/**
 * SGLang configures speculation with three knobs (steps, EAGLE top-k, draft tokens); schema.md
 * maps `num_spec_tokens` to `--speculative-num-draft-tokens`, the number of tokens verified per
 * step. The three knobs stay in their own columns too.
 */
export function settleSglangSpec(builder: FieldMapBuilder): void {
  const k = builder.fields.spec_num_draft_tokens;
  if (typeof k === 'number' && !builder.has('num_spec_tokens')) builder.set('num_spec_tokens', k, builder.lines.spec_num_draft_tokens ?? 0);
}

/** SGLang's speculative arguments: `speculative_num_steps=5` in a dump, `--speculative-eagle-topk 4` in a command. */
const SPECULATIVE_ARG = /^-*speculative[-_]/i;

/**
 * SGLang reads its speculative arguments (sizes, thresholds, backends) only once an algorithm is
 * named, and a ServerArgs dump prints them all, defaults included (0.4.x: `speculative_algorithm=None,
 * speculative_num_steps=5, speculative_eagle_topk=4, speculative_num_draft_tokens=8`). A dump is
 * printed after SGLang resolved its arguments: `speculative_algorithm=None` there means no speculative
 * decoding, and the other `speculative_*` say nothing of the run (a vLLM dump's
 * `speculative_config=None` gives no such columns either). They are left out then.
 */
export function withoutIdleSpecArgs(args: Readonly<Record<string, PyValue>>): Readonly<Record<string, PyValue>> {
  if (!Object.hasOwn(args, 'speculative_algorithm') || args.speculative_algorithm !== null) return args;
  return Object.fromEntries(Object.entries(args).filter(([name]) => !SPECULATIVE_ARG.test(name)));
}

/**
 * The same rule for a launch command's flags: one that names no algorithm, no draft model and no
 * speculative config (`--speculative-num-steps 3 --speculative-eagle-topk 1` alone) serves without
 * speculative decoding, and its speculative flags are left out. The caller makes sure no argument
 * is out of sight (a variable, a configuration file), where an algorithm may be named.
 */
export function withoutIdleSpecFlags<F extends { readonly name: string }>(flags: readonly F[]): readonly F[] {
  if (!flags.some((f) => SPECULATIVE_ARG.test(f.name)) || flags.some((f) => namesSpeculation(f.name))) return flags;
  return flags.filter((f) => !SPECULATIVE_ARG.test(f.name));
}

/** `--speculative-algorithm` (argparse's `--speculative-algo`), a draft model, `--speculative-config[.method]`. */
function namesSpeculation(flag: string): boolean {
  const column = canonicalFlag(flag.split('.')[0] ?? flag);
  return column === 'spec_method' || column === 'draft_model' || column === 'speculative_config';
}
