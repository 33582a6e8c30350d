import { type Command, InvalidArgumentError } from 'commander';
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
