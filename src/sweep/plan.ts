import path from 'node:path';
import { mergeArgs, toArgv } from './argv.js';
import { evalExpr } from './expr.js';
import type { Sweep, Variant } from './types.js';

/** One load-generator run of a variant. */
export interface BenchPlan {
  readonly concurrency: number;
  readonly repeat: number;
  /** `bench-c4` or `bench-c4-r2` (with repeats > 1): the stem of the .log and result files. */
  readonly stem: string;
  readonly logFile: string;
  readonly resultFile: string;
  readonly command: readonly string[];
}

/** Everything one variant will run, with absolute file paths under the output folder. */
export interface VariantPlan {
  readonly variant: Variant;
  readonly dir: string;
  readonly serverCommand: readonly string[];
  readonly runs: readonly BenchPlan[];
}

/** Builds the exact commands of every variant (server + one bench per concurrency and repeat). */
export function planSweep(sweep: Sweep, outDir: string, only?: readonly string[]): VariantPlan[] {
  return sweep.variants
    .filter((variant) => !only || only.length === 0 || only.includes(variant.name))
    .map((variant) => planVariant(sweep, variant, path.join(outDir, variant.name)));
}

function planVariant(sweep: Sweep, variant: Variant, dir: string): VariantPlan {
  const runs: BenchPlan[] = [];
  for (const c of sweep.concurrency) {
    for (let r = 1; r <= sweep.repeats; r++) {
      const stem = sweep.repeats > 1 ? `bench-c${c}-r${r}` : `bench-c${c}`;
      const resultName = `${stem}.${sweep.engine === 'sglang' ? 'jsonl' : 'json'}`;
      runs.push({
        concurrency: c,
        repeat: r,
        stem,
        logFile: path.join(dir, `${stem}.log`),
        resultFile: path.join(dir, resultName),
        command: benchCommand(sweep, variant, c, dir, resultName),
      });
    }
  }
  return { variant, dir, serverCommand: serverCommand(sweep, variant), runs };
}

/** `vllm serve MODEL`, `python -m sglang.launch_server --model-path MODEL`, `trtllm-serve MODEL`. */
export function serverCommand(sweep: Sweep, variant: Variant): string[] {
  const model = sweep.engine === 'sglang' ? ['--model-path', sweep.model] : [sweep.model];
  const where = ['--host', sweep.host, '--port', String(sweep.port)];
  return [...sweep.executables.server, ...model, ...where, ...toArgv(mergeArgs(sweep.serverArgs, variant.serverArgs))];
}

function benchCommand(sweep: Sweep, variant: Variant, c: number, dir: string, resultName: string): string[] {
  const n = Math.max(1, Math.round(evalExpr(sweep.numPrompts, c)));
  const rate = sweep.requestRate === 'inf' ? 'inf' : String(evalExpr(sweep.requestRate, c));
  const load = ['--max-concurrency', String(c), '--num-prompts', String(n), '--request-rate', rate];
  const extra = toArgv(sweep.benchArgs);
  if (sweep.engine === 'sglang') {
    const where = ['--backend', 'sglang', '--host', sweep.host, '--port', String(sweep.port), '--model', sweep.model];
    return [...sweep.executables.bench, ...where, ...load, '--output-file', path.join(dir, resultName), ...extra];
  }
  const backend = sweep.engine === 'vllm' ? 'vllm' : 'openai';
  const where = ['--backend', backend, '--base-url', `http://${sweep.host}:${sweep.port}`, '--model', sweep.model];
  const save = ['--save-result', '--result-dir', dir, '--result-filename', resultName, '--label', variant.name];
  return [...sweep.executables.bench, ...where, ...load, ...save, ...extra];
}
