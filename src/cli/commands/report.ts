import type { Command } from 'commander';
import { parseSla } from '../../analyze/summary-sla.js';
import { counted } from '../../core/counted.js';
import { UsageError } from '../../core/errors.js';
import type { CommandResult } from '../command-result.js';
import { collectGarbage } from '../heap.js';
import { progressBar } from '../reporters/progress-bar.js';
import { addRunOptions, runOptions, scanOptions, type InputOptions, type RunOptions } from '../input-options.js';

interface ReportOptions extends RunOptions {
  readonly out: string;
  readonly baseline?: string;
  readonly title: string;
  readonly sla?: string;
  readonly metric?: string;
}

export function registerReport(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addRunOptions(
    program
      .command('report')
      .description('one offline HTML report (index.html) plus figures/, tables/ and summary.md')
      .argument('<paths...>', 'files or folders to read')
      .option('-o, --out <dir>', 'output folder', 'reports/latest')
      .option('-b, --baseline <filter>', 'baseline runs, column=value[,column=value] (default: spec_method=none when present)')
      .option('-t, --title <title>', 'report title', 'benchlens report')
      .option('--metric <metric>', 'the metric the charts, findings and summaries lead with, e.g. mean_tpot_ms (default: output_throughput; a latency benchmark\'s batch latency)')
      .option('--sla <limits>', 'SLA limits in ms, e.g. ttft=200,tpot=50: adds the largest load meeting them per configuration'),
  ).action((paths: string[], options: ReportOptions) =>
    run(async () => {
      const sla = options.sla ? parseSla(options.sla) : undefined;
      const metric = options.metric?.trim();
      // loaded on use: the grammars, vega and resvg are not needed by the other commands
      const [{ loadTables }, { writeReport }] = await Promise.all([import('../../report/tables.js'), import('../../report/write-report.js')]);
      const bar = progressBar();
      const tables = await loadTables(paths, scanOptions(options), options.baseline, { pause: collectGarbage, progress: bar.update, runs: runOptions(options), ...(metric ? { metric } : {}) });
      bar.done();
      if (metric && !tables.runs.some((r) => typeof r[metric] === 'number')) throw new UsageError(`--metric ${JSON.stringify(metric)}: no run has a value of it (a column of \`benchlens table\`, e.g. mean_tpot_ms)`);
      const { report, written } = await writeReport(options.out, tables, options.title, { pause: collectGarbage, ...(sla ? { sla } : {}), ...(metric ? { metric } : {}) });
      const drawn = report.figures.filter((f) => f.drawn).length;
      return { diagnostics: tables.diagnostics, summary: `report with ${counted(tables.runs.length, 'run')} and ${counted(drawn, 'chart')}: ${counted(written.length, 'file')} in ${options.out}` };
    }, options),
  );
}
