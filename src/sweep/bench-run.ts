import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Interrupt } from './interrupt.js';
import type { RunEntry } from './manifest.js';
import type { BenchPlan } from './plan.js';
import { type GroupProcess, startGroup, stopGroup, timer } from './process-group.js';
import type { Sweep } from './types.js';

/** Runs one load-generator command to completion, timeout or interrupt; returns its manifest entry. */
export async function runBench(sweep: Sweep, run: BenchPlan, interrupt: Interrupt): Promise<{ entry: RunEntry; error: string | null }> {
  writeFileSync(run.logFile, '');
  const bench = startGroup(run.command, run.logFile, sweep.env);
  interrupt.live.add(bench);
  const limit = timer(sweep.timeouts.benchmarkS * 1000);
  const how = await Promise.race([
    bench.exited.then(() => 'exited' as const),
    limit.done.then(() => 'timeout' as const),
    interrupt.triggered.then(() => 'interrupted' as const),
  ]);
  limit.cancel();
  if (how !== 'exited') await stopGroup(bench, sweep.timeouts.shutdownGraceS);
  interrupt.live.delete(bench);
  const base = { concurrency: run.concurrency, repeat: run.repeat, command: run.command, log: path.basename(run.logFile), result: path.basename(run.resultFile) };
  if (how === 'interrupted' || interrupt.interrupted) {
    return { entry: { ...base, outcome: 'interrupted', exit_status: status(bench) }, error: 'interrupted' };
  }
  if (how === 'timeout') {
    return { entry: { ...base, outcome: 'bench-failed', exit_status: 'timeout' }, error: `${run.stem}: benchmark did not finish within ${sweep.timeouts.benchmarkS} s` };
  }
  if (bench.exitStatus !== 0) {
    return { entry: { ...base, outcome: 'bench-failed', exit_status: status(bench) }, error: `${run.stem}: benchmark exited with ${String(bench.exitStatus)}; see ${base.log}` };
  }
  if (!existsSync(run.resultFile)) {
    return { entry: { ...base, outcome: 'bench-failed', exit_status: 0 }, error: `${run.stem}: benchmark wrote no result file ${base.result}` };
  }
  return { entry: { ...base, outcome: 'ok', exit_status: 0 }, error: null };
}

function status(p: GroupProcess): number | string | null {
  return p.exitStatus ?? null;
}
