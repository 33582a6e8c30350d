import type { SweepEvent } from './events.js';
import type { Interrupt } from './interrupt.js';
import { gpuList } from './manifest.js';
import type { VariantPlan } from './plan.js';
import { runVariant, type VariantResult } from './run-variant.js';
import type { Sweep } from './types.js';

export interface SweepOptions {
  readonly resume: boolean;
  readonly interrupt: Interrupt;
  readonly onEvent?: (e: SweepEvent) => void;
}

/** Runs variants one after another; a failed variant is recorded and the sweep goes on. */
export async function runSweep(sweep: Sweep, plans: readonly VariantPlan[], options: SweepOptions): Promise<VariantResult[]> {
  const gpus = gpuList();
  const results: VariantResult[] = [];
  for (const [index, plan] of plans.entries()) {
    if (options.interrupt.interrupted) break;
    const ctx = { sweep, resume: options.resume, interrupt: options.interrupt, gpus, index, total: plans.length, emit: options.onEvent ?? (() => undefined) };
    results.push(await runVariant(plan, ctx));
  }
  return results;
}
