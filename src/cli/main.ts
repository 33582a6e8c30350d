#!/usr/bin/env node
/**
 * benchlens command line. Commander parses, the pipeline computes, reporters format. Only this
 * module sets the exit code: 0 clean, 1 error-level diagnostics, 2 usage/config/output/internal error.
 */
import { statSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { counted } from '../core/counted.js';
import { formatDiagnostic, inertLine } from '../core/diagnostic.js';
import { ConfigError, OutputError, UsageError } from '../core/errors.js';
import type { CommandResult } from './command-result.js';
import type { InputOptions } from './input-options.js';
// peak RSS (issue 7)
import { limitHeapGrowth } from './heap.js';
// speed (issue 7)
import { limitInlining } from './inlining.js';
import { prestartWorkers } from '../pipeline/worker-pool.js';

limitHeapGrowth();
limitInlining();

// A reader that stops early (`benchlens table … | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/** Commands that read folders: their scan workers load the grammars while this thread starts up. */
const SCANNING = new Set(['scan', 'table', 'compare', 'report', 'plot']);
// only when a folder is named: files named one by one are rarely enough to pay for a worker
if (SCANNING.has(process.argv[2] ?? '') && process.argv.slice(3).some(isFolder)) prestartWorkers();

function isFolder(arg: string): boolean {
  try {
    return statSync(arg).isDirectory();
  } catch {
    return false;
  }
}

const program = new Command();
program
  .name('benchlens')
  .description(
    'Read folders of LLM-serving benchmark outputs and server logs (vLLM, SGLang, TensorRT-LLM), ' +
      'normalize them into one runs table, compare configurations and draw figures.',
  )
  .version('0.1.0')
  .showHelpAfterError()
  .exitOverride()
  .addHelpText(
    'after',
    `
Examples:
  benchlens scan results/                     what is in the folder: formats, runs, problems
  benchlens table results/ --format md        one row per run, canonical columns
  benchlens table results/ -f json -o runs.json
  benchlens table results/ --timeline         server stats over time (throughput, KV cache, acceptance)
  benchlens compare results/ --baseline spec_method=none --format md
  benchlens compare results/ --baseline spec_method=none --summary
  benchlens report results/ --out report/     offline HTML report + SVG/PNG figures + tables
  benchlens run sweep.yaml --out runs/ --dry-run

Data goes to stdout, diagnostics to stderr as "file:line:col: severity code message".`,
  );

async function run(work: () => Promise<CommandResult>, options: InputOptions): Promise<void> {
  const result = await work();
  let hidden = 0;
  for (const d of result.diagnostics) {
    if (d.severity === 'info' && !options.verbose) {
      hidden++;
      continue;
    }
    process.stderr.write(`${inertLine(formatDiagnostic(d))}\n`);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
  if (result.summary) {
    const info = hidden > 0 ? `, ${hidden} info (--verbose shows them)` : '';
    process.stderr.write(`benchlens: ${inertLine(result.summary)}; ${counted(errors, 'error')}, ${counted(warnings, 'warning')}${info}\n`);
  }
  if (errors > 0) process.exitCode = 1;
}

type Register = (program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>) => void;

/**
 * Each command's module, loaded only when that command runs (or for the full help): a `table` of
 * a big folder does not wait for the analysis, chart and runner modules to load.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  scan: async () => (await import('./commands/scan.js')).registerScan,
  table: async () => (await import('./commands/table.js')).registerTable,
  // comparison (issue 4)
  compare: async () => (await import('./commands/compare.js')).registerCompare,
  // sweep runner (issue 6)
  run: async () => (await import('./commands/run.js')).registerRun,
  // figures and reports (issue 5)
  report: async () => (await import('./commands/report.js')).registerReport,
  plot: async () => (await import('./commands/plot.js')).registerPlot,
};

const named = process.argv[2];
/** `--version` needs no command; a named command needs its own; anything else (help, a typo) all of them. */
const needed = named === '--version' || named === '-V' ? [] : named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
for (const name of needed) {
  (await (COMMANDS[name] as () => Promise<Register>)())(program, run);
}

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof UsageError || e instanceof ConfigError || e instanceof OutputError) {
    process.stderr.write(`benchlens: ${e.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`benchlens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 2;
  }
}
