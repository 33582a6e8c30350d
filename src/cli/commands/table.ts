import type { Command } from 'commander';
import { counted } from '../../core/counted.js';
import { UsageError } from '../../core/errors.js';
// configuration inference and linking (issue 4)
import { DiagnosticCollector, sortDiagnostics } from '../../core/diagnostic.js';
import { buildRuns, takeRuns } from '../../normalize/build-runs.js';
// server-log timeline (issue 3 item 3)
import { timelineTable } from '../../normalize/timeline-table.js';
import { rowFiller } from '../../normalize/runs-table.js';
import { isJsonFormat, isTableFormat, TABLE_FORMATS, type TableFormat } from '../../output/format-names.js';
import { jsonRowChunks } from '../../output/json-rows.js';
import { writeOutputChunks } from '../../output/write.js';
import { scan } from '../../pipeline/scan-parallel.js';
import { type ScanResult, takeRecords } from '../../pipeline/scan-result.js';
import type { FieldValue } from '../../core/types.js';
import { progressBar } from '../reporters/progress-bar.js';
import { collectGarbage } from '../heap.js';
import type { CommandResult } from '../command-result.js';
import { addRunOptions, runOptions, scanOptions, type InputOptions, type RunOptions } from '../input-options.js';

/** Below this many runs the garbage of building the table is too small to collect on purpose. */
const LARGE_TABLE_RUNS = 5000;

interface TableOptions extends RunOptions {
  readonly format: string;
  readonly out?: string;
  readonly timeline?: boolean;
}

export function registerTable(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addRunOptions(
    program
      .command('table')
      .description('one row per benchmark run with canonical columns (schema: docs/schema.md)')
      .argument('<paths...>', 'files or folders to read')
      .option('-f, --format <format>', `output format: ${TABLE_FORMATS.join(', ')}`, 'csv')
      .option('-o, --out <file>', 'write to a file instead of stdout')
      .option('--timeline', 'one row per server stats line instead (schema: docs/schema.md §2)'),
  ).action((paths: string[], options: TableOptions) =>
    run(async () => {
      if (!isTableFormat(options.format)) throw new UsageError(`unknown --format ${JSON.stringify(options.format)}; use one of ${TABLE_FORMATS.join(', ')}`);
      const build = runOptions(options);
      const bar = progressBar();
      let result: ScanResult | null = await scan(paths, scanOptions(options), bar.update);
      bar.done();
      if (options.timeline) {
        const sink = new DiagnosticCollector();
        // the runs say which lines are theirs (run_id): how they were linked to the logs is said
        // here, what else building them finds (conflicting configurations) in `table`
        const runSink = new DiagnosticCollector();
        const { served } = buildRuns([...result.records], runSink, build);
        const timeline = timelineTable(result.records, sink, served);
        const linking = runSink.list().filter((d) => d.code.startsWith('link/'));
        // rows are built as they are written (a long SGLang log has hundreds of thousands)
        const rowNumbers = new Uint32Array(timeline.length).map((_, i) => i);
        writeOutputChunks(options.out, await rowChunks(rowNumbers, options.format, (i) => timeline.row(i)));
        return { diagnostics: sortDiagnostics([...result.diagnostics, ...linking, ...sink.list()]), summary: `${counted(timeline.length, 'timeline row')} from ${counted(result.files.length, 'file')}` };
      }
      const sink = new DiagnosticCollector();
      // the parsed records are not needed once the run rows exist: takeRuns lets them go (peak RSS)
      const records = takeRecords(result);
      const { diagnostics } = result;
      const fileCount = result.files.length;
      const large = result.files.reduce((n, f) => n + f.runs, 0) > LARGE_TABLE_RUNS;
      result = null;
      // Large tables: full collections before building the rows (what the scan left behind), while
      // building them (the intermediate rows) and before writing them, so no phase adds to the next one's peak.
      if (large) collectGarbage();
      const { rows, columns } = takeRuns(records, sink, { ...build, ...(large ? { pause: collectGarbage } : {}) });
      const runCount = rows.length;
      if (large) collectGarbage();
      // written in pieces, each row filled as it is written and then let go: the whole table at once would cost its size again (peak RSS)
      const fill = rowFiller(columns);
      writeOutputChunks(options.out, isJsonFormat(options.format) ? jsonRowChunks(rows, options.format, fill, { take: rows }) : await rowChunks(rows, options.format, fill));
      return { diagnostics: sortDiagnostics([...diagnostics, ...sink.list()]), summary: `${counted(runCount, 'run')} from ${counted(fileCount, 'file')}` };
    }, options),
  );
}

/** JSON is written without loading Arquero (the CSV and Markdown writer): start-up counts on big scans. */
async function rowChunks<R>(rows: ArrayLike<R>, format: TableFormat, fill: (row: R) => Record<string, FieldValue>): Promise<Iterable<string>> {
  if (isJsonFormat(format)) return jsonRowChunks(rows, format, fill);
  const { formatRowChunks } = await import('../../output/table-format.js');
  return formatRowChunks(rows, format, fill);
}
