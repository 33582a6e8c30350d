import type { Command } from 'commander';
import { counted } from '../../core/counted.js';
import { scan } from '../../pipeline/scan-parallel.js';
import { type ScanResult, takeRecords } from '../../pipeline/scan-result.js';
import { progressBar } from '../reporters/progress-bar.js';
import type { CommandResult } from '../command-result.js';
import { addRunOptions, runOptions, scanOptions, type InputOptions, type RunOptions } from '../input-options.js';
import { formatScanText } from '../reporters/scan-text.js';
// failed configurations (issue 4)
import { DiagnosticCollector, sortDiagnostics } from '../../core/diagnostic.js';
import { takeRuns } from '../../normalize/build-runs.js';
import { formatFailedConfigurations } from '../reporters/failed-configurations-text.js';

interface ScanCommandOptions extends RunOptions {
  readonly json?: boolean;
}

export function registerScan(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addRunOptions(
    program
      .command('scan')
      .description('list every file found: its detected format (or "unrecognized"), runs found (for a server log, the runs linked to it) and diagnostics')
      .argument('<paths...>', 'files or folders to read')
      .option('--json', 'print the file list as JSON'),
  ).action((paths: string[], options: ScanCommandOptions) =>
    run(async () => {
      const build = runOptions(options);
      const bar = progressBar();
      const result = await scan(paths, scanOptions(options), bar.update);
      bar.done();
      const sink = new DiagnosticCollector();
      // the runs are built for what they say about the files (failed configurations, conflicts), not
      // written: their rows need no filling, and the records can go as they are built
      const { failedConfigurations: failed, linkedRuns, rows } = takeRuns(takeRecords(result), sink, build);
      // a server log or manifest holds no run of its own: what it says goes to the runs linked to it
      const files = result.files.map((f) => ({ ...f, linked_runs: linkedRuns.get(f.path) ?? 0 }));
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ files, totals: { ...totals(result.files), table_runs: rows.length }, failed_configurations: failed }, null, 2)}\n`
          : formatScanText(files) + formatFailedConfigurations(failed),
      );
      const t = totals(result.files);
      // a run found in two files (a block and the JSON it saved, a summary quoting a log) is one row of the table
      const copies = t.runs > rows.length ? ` (${rows.length} in the table: ${counted(t.runs - rows.length, 'copy', 'copies')} merged)` : '';
      return { diagnostics: sortDiagnostics([...result.diagnostics, ...sink.list()]), summary: `${counted(t.files, 'file')} (${t.parsed} parsed, ${t.unrecognized} unrecognized, ${t.skipped} skipped), ${counted(t.runs, 'run')}${copies}, ${counted(failed.length, 'failed configuration')}` };
    }, options),
  );
}

function totals(files: ScanResult['files']) {
  return {
    files: files.length,
    parsed: files.filter((f) => f.status === 'parsed').length,
    unrecognized: files.filter((f) => f.status === 'unrecognized').length,
    skipped: files.filter((f) => f.status === 'skipped').length,
    runs: files.reduce((n, f) => n + f.runs, 0),
  };
}
