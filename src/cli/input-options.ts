import type { Command } from 'commander';
import type { DiscoverOptions } from '../ingest/discover.js';

/** Options shared by every command that reads a folder. */
export interface InputOptions {
  readonly include?: string[];
  readonly exclude?: string[];
  readonly verbose?: boolean;
}

export function addInputOptions(command: Command): Command {
  return command
    .option('--include <glob...>', 'only read files matching these globs (relative to each folder)')
    .option('--exclude <glob...>', 'skip files matching these globs')
    .option('-v, --verbose', 'also print info-level diagnostics on stderr');
}

export function discoverOptions(o: InputOptions): DiscoverOptions {
  return { ...(o.include ? { include: o.include } : {}), ...(o.exclude ? { exclude: o.exclude } : {}) };
}
