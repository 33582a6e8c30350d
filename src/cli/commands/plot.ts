import type { Command } from 'commander';
import { parseFilter } from '../../analyze/filter.js';
import { headlineMetric } from '../../analyze/headline-metric.js';
import { CHART_IDS, CHARTS, isChartId } from '../../charts/catalogue.js';
import { matchesFilter } from '../../charts/fields.js';
import type { ChartOptions } from '../../charts/types.js';
import { UsageError } from '../../core/errors.js';
import { writeOutput } from '../../output/write.js';
import { baselineRecord, chartRows } from '../../report/figures.js';
import { applyBlogPreset, captionFor } from '../../render/preset.js';
import { renderSvg } from '../../render/svg.js';
import { vlJson } from '../../render/vl-json.js';
import { collectGarbage } from '../heap.js';
import { progressBar } from '../reporters/progress-bar.js';
import type { CommandResult } from '../command-result.js';
import { addRunOptions, runOptions, scanOptions, type InputOptions, type RunOptions } from '../input-options.js';

interface PlotOptions extends RunOptions {
  readonly chart: string;
  readonly out: string;
  readonly x?: string;
  readonly y?: string;
  readonly color?: string;
  readonly facet?: string;
  readonly metric?: string;
  readonly filter?: string;
  readonly baseline?: string;
  readonly title?: string;
}

export function registerPlot(program: Command, run: (work: () => Promise<CommandResult>, o: InputOptions) => Promise<void>): void {
  addRunOptions(
    program
      .command('plot')
      .description('one figure as SVG, PNG (2×) or Vega-Lite JSON with the data inlined')
      .argument('<paths...>', 'files or folders to read')
      .requiredOption('-c, --chart <id>', `chart: ${CHART_IDS.join(', ')}`)
      .requiredOption('-o, --out <file>', 'output file: .svg, .png or .vl.json')
      .option('--x <column>', 'x axis column')
      .option('--y <column>', 'y axis column')
      .option('--color <column>', 'colour/series column')
      .option('--facet <column>', 'panel column')
      .option('--metric <metric>', 'base metric (comparison charts read speedup_<metric>; default: output_throughput, or what the runs measure instead, e.g. mean_batch_latency_ms)')
      .option('--filter <filter>', 'keep only rows matching column=value[,column=value]')
      .option('-b, --baseline <filter>', 'baseline runs (default: spec_method=none when present)')
      .option('--title <title>', 'figure title'),
  ).action((paths: string[], options: PlotOptions) =>
    run(async () => {
      if (!isChartId(options.chart)) throw new UsageError(`unknown --chart ${JSON.stringify(options.chart)}; use one of ${CHART_IDS.join(', ')}`);
      if (!/\.(svg|png|vl\.json)$/.test(options.out)) throw new UsageError('--out must end in .svg, .png or .vl.json');
      // loaded on use: the grammars and resvg are not needed by the other commands
      const [{ loadTables }, { svgToPng }] = await Promise.all([import('../../report/tables.js'), import('../../render/png.js')]);
      const bar = progressBar();
      const tables = await loadTables(paths, scanOptions(options), options.baseline, { pause: collectGarbage, progress: bar.update, runs: runOptions(options) });
      bar.done();
      const filter = options.filter === undefined ? null : parseFilter(options.filter);
      const filterRecord = filter ? Object.fromEntries(filter.terms.map((t) => [t.column, t.value])) : null;
      const rows = chartRows(tables, options.chart).filter((r) => filterRecord === null || matchesFilter(r, filterRecord));
      const baseline = baselineRecord(tables);
      const chartOptions: ChartOptions = {
        ...(options.x ? { x: options.x } : {}),
        ...(options.y ? { y: options.y } : {}),
        ...(options.color ? { color: options.color } : {}),
        ...(options.facet ? { facet: options.facet } : {}),
        // the metric the runs lead with unless one is asked for (a latency benchmark's batch latency)
        metric: options.metric ?? headlineMetric(tables.runs),
        ...(options.title ? { title: options.title } : {}),
        ...(baseline ? { baseline } : {}),
        runs: tables.runs,
        configColumns: tables.configColumns,
      };
      const result = CHARTS[options.chart].build(rows, chartOptions);
      if (!result.ok) throw new UsageError(`cannot draw ${options.chart}: ${result.reason}`);
      const spec = applyBlogPreset(result.spec, captionFor(tables.runs));
      if (options.out.endsWith('.vl.json')) writeOutput(options.out, vlJson(spec));
      else {
        const svg = await renderSvg(spec);
        writeOutput(options.out, options.out.endsWith('.png') ? svgToPng(svg) : svg);
      }
      // asked for, a crowded chart is drawn all the same, and the summary says why it is hard to read
      const crowded = result.crowded === undefined ? '' : ` (${result.crowded})`;
      return { diagnostics: tables.diagnostics, summary: `${options.chart} from ${rows.length} rows written to ${options.out}${crowded}` };
    }, options),
  );
}
