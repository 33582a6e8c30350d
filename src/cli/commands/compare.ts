import type { Command } from 'commander';
import { annotateBreakEven } from '../../analyze/annotate-break-even.js';
import { headlineMetric } from '../../analyze/headline-metric.js';
import { compareRuns } from '../../analyze/compare.js';
import { parseFilter } from '../../analyze/filter.js';
import { allSummaries } from '../../analyze/summaries.js';
import { parseSla } from '../../analyze/summary-sla.js';
import { counted } from '../../core/counted.js';
import { DiagnosticCollector, sortDiagnostics } from '../../core/diagnostic.js';
import { UsageError } from '../../core/errors.js';
import { buildRuns } from '../../normalize/build-runs.js';
import { formatRows, isTableFormat, TABLE_FORMATS, type TableFormat } from '../../output/table-format.js';
import { writeOutput } from '../../output/write.js';
import { scan } from '../../pipeline/scan-parallel.js';
import { type ScanResult, takeRecords } from '../../pipeline/scan-result.js';
import type { CommandResult } from '../command-result.js';
import { collectGarbage } from '../heap.js';
import { progressBar } from '../reporters/progress-bar.js';
import { addRunOptions, runOptions, scanOptions, type InputOptions, type RunOptions } from '../input-options.js';

interface CompareOptions extends RunOptions {
  readonly baseline: string;
  readonly metric?: string[];
  readonly match?: string;
  readonly format: string;
  readonly out?: string;
  readonly summary?: boolean;
  readonly sla?: string;
}

export function registerCompare(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addRunOptions(
    program
      .command('compare')
      .description('pair every run with its like-for-like baseline and compute speedups (> 1 = better; docs/schema.md §3)')
      .argument('<paths...>', 'files or folders to read')
      .requiredOption('--baseline <filter>', 'baseline runs: column=value[,column=value], e.g. spec_method=none')
      .option('--metric <metric...>', 'metrics to compare (default: output_throughput total_token_throughput mean_tpot_ms mean_ttft_ms mean_e2el_ms, and mean_batch_latency_ms total_latency_ms when runs have them)')
      .option('--match <keys>', 'comma-separated match keys, replacing the default (configuration columns that vary)')
      .option('-f, --format <format>', `output format: ${TABLE_FORMATS.join(', ')}`, 'csv')
      .option('-o, --out <file>', 'write to a file instead of stdout')
      .option('--summary', 'print the summary tables (best speedup, break-even, best K, ladder, SLA, failed configurations) instead of the pairs')
      .option('--sla <limits>', 'SLA limits in ms for the summary, e.g. ttft=200,tpot=50'),
  ).action((paths: string[], options: CompareOptions) =>
    run(async () => {
      const format = options.format;
      if (!isTableFormat(format)) throw new UsageError(`unknown --format ${JSON.stringify(format)}; use one of ${TABLE_FORMATS.join(', ')}`);
      const baseline = parseFilter(options.baseline);
      const sla = options.sla ? parseSla(options.sla) : undefined;
      const build = runOptions(options);
      const bar = progressBar();
      let scanned: ScanResult | null = await scan(paths, scanOptions(options), bar.update);
      bar.done();
      const { diagnostics } = scanned;
      // the parsed records are let go as the run rows are built (peak RSS of a large campaign)
      const records = takeRecords(scanned);
      scanned = null;
      collectGarbage();
      const sink = new DiagnosticCollector();
      const built = buildRuns(records, sink, { ...build, pause: collectGarbage });
      collectGarbage();
      const metrics = options.metric && options.metric.length > 0 ? options.metric : undefined;
      const match = options.match ? options.match.split(',').map((k) => k.trim()).filter((k) => k !== '') : undefined;
      const pairs = compareRuns(built.rows, {
        baseline,
        configColumns: built.configColumns,
        failedConfigurations: built.failedConfigurations,
        sink,
        ...(metrics ? { metrics } : {}),
        ...(match ? { match } : {}),
      });
      // break-even and summaries: the first metric asked for, else the one the runs lead with (output throughput; a latency benchmark's batch latency)
      const metric = metrics?.[0] ?? headlineMetric(built.rows);
      const rows = annotateBreakEven(pairs, { metric, configColumns: built.configColumns });
      const text = options.summary
        ? summaryText(allSummaries(rows, built.rows, { metric, ...(sla ? { sla } : {}), failedConfigurations: built.failedConfigurations, configColumns: built.configColumns }), format)
        : formatRows(rows, format);
      if (options.out) writeOutput(options.out, text);
      else process.stdout.write(text);
      const ok = rows.filter((r) => r.pair_status === 'ok').length;
      return {
        diagnostics: sortDiagnostics([...diagnostics, ...sink.list()]),
        summary: `${counted(rows.length - built.failedConfigurations.length, 'comparison')} (${ok} ok), ${counted(built.failedConfigurations.length, 'failed configuration')}, from ${counted(built.rows.length, 'run')}`,
      };
    }, options),
  );
}

/** Summary tables: one JSON object keyed by table id, or titled sections in the other formats. */
function summaryText(tables: ReturnType<typeof allSummaries>, format: TableFormat): string {
  if (format === 'json') return `${JSON.stringify(Object.fromEntries(tables.map((t) => [t.id, JSON.parse(formatRows(t.rows, 'json'))])), null, 2)}\n`;
  return tables
    .map((t) => {
      const body = t.rows.length === 0 ? '(none)\n' : formatRows(t.rows, format);
      return format === 'md' ? `## ${t.title}\n\n${body}` : `# ${t.title}\n${body}`;
    })
    .join('\n');
}
