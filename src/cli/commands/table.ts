import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { toRunRows } from '../../normalize/runs-table.js';
import { formatRows, isTableFormat, TABLE_FORMATS } from '../../output/table-format.js';
import { writeOutput } from '../../output/write.js';
import { scan } from '../../pipeline/scan.js';
import { progressBar } from '../reporters/progress-bar.js';
import type { CommandResult } from '../command-result.js';
import { addInputOptions, discoverOptions, type InputOptions } from '../input-options.js';

interface TableOptions extends InputOptions {
  readonly format: string;
  readonly out?: string;
}

export function registerTable(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addInputOptions(
    program
      .command('table')
      .description('one row per benchmark run with canonical columns (schema: docs/schema.md)')
      .argument('<paths...>', 'files or folders to read')
      .option('-f, --format <format>', `output format: ${TABLE_FORMATS.join(', ')}`, 'csv')
      .option('-o, --out <file>', 'write to a file instead of stdout'),
  ).action((paths: string[], options: TableOptions) =>
    run(async () => {
      if (!isTableFormat(options.format)) throw new UsageError(`unknown --format ${JSON.stringify(options.format)}; use one of ${TABLE_FORMATS.join(', ')}`);
      const bar = progressBar();
      const result = await scan(paths, discoverOptions(options), bar.update);
      bar.done();
      const rows = toRunRows(result.records);
      const text = formatRows(rows, options.format);
      if (options.out) writeOutput(options.out, text);
      else process.stdout.write(text);
      return { diagnostics: result.diagnostics, summary: `${rows.length} runs from ${result.files.length} files` };
    }, options),
  );
}
