import path from 'node:path';
import type { Command } from 'commander';
import { DiagnosticCollector } from '../../core/diagnostic.js';
import { UsageError } from '../../core/errors.js';
import { asRelPath } from '../../core/types.js';
import { writeOutput } from '../../output/write.js';
import { Interrupt } from '../../sweep/interrupt.js';
import { loadSweep } from '../../sweep/load.js';
import { planSweep } from '../../sweep/plan.js';
import { runSweep } from '../../sweep/run-sweep.js';
import { dryRunLines, slurmScript } from '../../sweep/slurm.js';
import type { CommandResult } from '../command-result.js';
import type { InputOptions } from '../input-options.js';
import { progressLine } from '../reporters/run-progress.js';

interface RunOptions extends InputOptions {
  readonly out?: string;
  readonly dryRun?: boolean;
  readonly resume?: boolean;
  readonly only?: string[];
  readonly emit?: string;
}

export function registerRun(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  program
    .command('run')
    .description('run a sweep (servers + load generator per variant and concurrency); needs the engines, i.e. a GPU machine')
    .argument('<sweep-file>', 'sweep file (YAML or JSON; see README "Sweep files")')
    .option('-o, --out <dir>', 'output folder (default: <sweep-file name>-results)')
    .option('--dry-run', 'print every command it would run, run nothing')
    .option('--resume', 'skip runs whose result file already exists')
    .option('--only <variant...>', 'run only these variants')
    .option('--emit <kind>', 'write a job script instead of running: slurm')
    .option('-v, --verbose', 'also print info-level diagnostics on stderr')
    .action((file: string, options: RunOptions) => run(() => runCommand(file, options), options));
}

async function runCommand(file: string, options: RunOptions): Promise<CommandResult> {
  const sweep = loadSweep(file);
  const outDir = path.resolve(options.out ?? `${path.basename(file).replace(/\.[^.]*$/, '')}-results`);
  const only = (options.only ?? []).flatMap((o) => o.split(',')).filter((o) => o !== '');
  for (const name of only) {
    if (!sweep.variants.some((v) => v.name === name)) {
      throw new UsageError(`--only ${JSON.stringify(name)}: no such variant (have ${sweep.variants.map((v) => v.name).join(', ')})`);
    }
  }
  if (options.emit !== undefined) {
    if (options.emit !== 'slurm') throw new UsageError(`unknown --emit ${JSON.stringify(options.emit)}; use slurm`);
    const script = path.join(outDir, 'sweep.sbatch');
    writeOutput(script, slurmScript(sweep, path.resolve(file), outDir, ['benchlens']));
    return { diagnostics: [], summary: `wrote ${script} (sbatch array of ${sweep.variants.length} tasks)` };
  }
  const plans = planSweep(sweep, outDir, only);
  if (options.dryRun) {
    process.stdout.write(`${dryRunLines(sweep, plans).join('\n')}\n`);
    return { diagnostics: [], summary: `dry run: ${plans.length} variants, ${plans.reduce((n, p) => n + p.runs.length, 0)} benchmark runs` };
  }
  const interrupt = new Interrupt();
  const onSignal = (): void => interrupt.trigger();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const results = await runSweep(sweep, plans, { resume: options.resume ?? false, interrupt, onEvent: progressLine(process.stderr) });
    const sink = new DiagnosticCollector();
    for (const r of results) {
      if (r.outcome !== 'ok') sink.report('sweep/variant-failed', { file: asRelPath(`${r.variant}/manifest.json`), line: 1, column: 1 }, r.variant, r.outcome, r.error ?? '');
    }
    const ok = results.filter((r) => r.outcome === 'ok').length;
    const skipped = results.filter((r) => r.skipped).length;
    const tail = interrupt.interrupted ? ' (interrupted)' : '';
    return { diagnostics: sink.list(), summary: `${ok}/${plans.length} variants ok (${skipped} already complete) in ${outDir}${tail}` };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
