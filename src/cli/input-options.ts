import { type Command, InvalidArgumentError } from 'commander';
import type { BuildRunsOptions } from '../normalize/build-runs.js';
import { compilePathTemplate } from '../normalize/path-template.js';
import { parseClockOffset } from '../normalize/time-window.js';
import type { ScanOptions } from '../pipeline/scan-parallel.js';

/** Options shared by every command that reads a folder. */
export interface InputOptions {
  readonly include?: string[];
  readonly exclude?: string[];
  readonly verbose?: boolean;
  readonly threads?: number;
}

export function addInputOptions(command: Command): Command {
  return command
    .option('--include <glob...>', 'only read files matching these globs (relative to each folder)')
    .option('--exclude <glob...>', 'skip files matching these globs')
    .option('-v, --verbose', 'also print info-level diagnostics on stderr')
    .option('--threads <n>', 'threads that parse files (default: one per core, at most 4; 1 = no worker threads)', positiveInteger);
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

export function scanOptions(o: InputOptions): ScanOptions {
  return { ...(o.include ? { include: o.include } : {}), ...(o.exclude ? { exclude: o.exclude } : {}), ...(o.threads ? { threads: o.threads } : {}) };
}

/** Options of the commands that build the runs table (scan, table, compare, report, plot). */
export interface RunOptions extends InputOptions {
  readonly pathTemplate?: string;
  /** Parsed by clockOffset: ms. */
  readonly clockOffset?: number;
}

export function addRunOptions(command: Command): Command {
  return addInputOptions(command)
    .option('--path-template <template>', "read columns from paths, e.g. '{engine}/{label}/c{max_concurrency}.log'")
    .option('--clock-offset <hours>', "how far the runs' clocks are ahead of the server logs' beside them, e.g. +2 or -5:30 (a client on UTC+2, a server container on UTC: +2)", clockOffset);
}

function clockOffset(value: string): number {
  const ms = parseClockOffset(value);
  if (ms === null) throw new InvalidArgumentError('expected hours, with minutes if any: +2, -5:30, +02:00');
  return ms;
}

/** What building the runs table takes from the command line. */
export function runOptions(o: RunOptions): Pick<BuildRunsOptions, 'pathTemplate' | 'clockOffsetMs'> {
  return { ...(o.pathTemplate ? { pathTemplate: compilePathTemplate(o.pathTemplate) } : {}), ...(o.clockOffset ? { clockOffsetMs: o.clockOffset } : {}) };
}
