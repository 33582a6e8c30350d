import { setCell } from '../core/cells.js';
import type { DiagnosticSink } from '../core/diagnostic.js';
import type { SourcePos } from '../core/types.js';
import type { ConfigRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { type ConfigLayer, applyLayers, canonicalCase } from './config-layers.js';
import { addDerived } from './derived.js';
import { failedConfigurations, type FailedConfiguration } from './failed-configurations.js';
import { batchLimits, indexSources, linkBenchConfig, linkBenchMetrics, linkManifest, linkServer } from './link-runs.js';
import { copyPlaces, dedupeRuns, withoutCopies } from './dedupe-runs.js';
import { configFromPath } from './path-config.js';
import { configFromTemplate, type PathTemplate } from './path-template.js';
import { excerptPath, type RunRow, runColumns, takeFilled, toSparseRunRows } from './runs-table.js';
import { capExtraColumns } from './extra-columns.js';
import { CONFIG_COLUMNS, DERIVED_COLUMNS, PROVENANCE_COLUMNS, RESULT_COLUMNS, SERVER_AGGREGATE_COLUMNS } from './schema.js';
import { type RunServedLines, type ServedLines, servedLines, serverAggregates } from './server-aggregates.js';
import { type ConfigSource, collectSources, inFileFailureSources, inFileServerSources } from './server-sources.js';
import { SPEC_RATES } from './spec-rates.js';
import { runWindow, shiftWindow, type TimeWindow } from './time-window.js';
import { offsetHint } from './clock-offset-hint.js';
import { windowRates } from './window-rates.js';

export interface BuildRunsOptions {
  /** `--path-template`: read declared columns from paths of another layout. */
  readonly pathTemplate?: PathTemplate;
  /**
   * Called after the rows are first built and every PAUSE_EVERY runs after: the command line
   * collects garbage there for large tables, whose intermediate rows would otherwise pile up in
   * the old generation until V8 gets to them (peak RSS, issue 7).
   */
  readonly pause?: () => void;
  /**
   * `--clock-offset`: how far the runs' clocks (a result's `date`, a block's times) are ahead of
   * the server logs' beside them, in ms (a client on UTC+2 and a server container on UTC: 2 h).
   * Runs are linked to those logs, and read in their stats, at their time on the logs' clock.
   */
  readonly clockOffsetMs?: number;
}

const PAUSE_EVERY = 10_000;

/** A run's start as the off-clock diagnostic shows it (`2025-11-02 12:00:00`, `11-02 12:00:00` without a year). */
function clockText(ms: number, hasYear: boolean): string {
  return new Date(ms).toISOString().slice(hasYear ? 0 : 5, 19).replace('T', ' ');
}

/** The runs table with inferred configuration, plus the configurations that never produced a run. */
export interface RunsBuild {
  readonly rows: RunRow[];
  readonly failedConfigurations: FailedConfiguration[];
  /** Configuration columns: the canonical ones plus every flag a configuration source brought. */
  readonly configColumns: string[];
  /** The stats lines of server logs that speak for each run (the timeline table's run_id). */
  readonly served: RunServedLines[];
  /** How many runs each server log, launch command or manifest file was linked to (`scan` says). */
  readonly linkedRuns: ReadonlyMap<string, number>;
  /** What the off-clock warnings offer, once each: an offset (ms), or null for those that offer none. */
  readonly clockOffsets: readonly (number | null)[];
}

const DERIVED = new Set<string>(DERIVED_COLUMNS);

/**
 * Records → runs table with configuration inference and run linking (issue 4). Each run row is
 * filled from its sources in precedence order: runner manifest > linked server log or launch
 * command > the benchmark's own arguments > its tool's configuration file beside it (`bench-config`)
 * > directory and file names. `config_sources` lists the
 * sources that contributed, lowest precedence first.
 *
 * `records` is emptied as the rows are built (as takeRuns does): every caller is done with them,
 * and a report of tens of thousands of runs would otherwise hold them all beside the rows.
 */
export function buildRuns(records: ParsedRecord[], sink: DiagnosticSink, options: BuildRunsOptions = {}): RunsBuild {
  const built = build(records, sink, options);
  return { ...built, rows: takeFilled(built.rows) };
}

/** Runs whose rows hold only their own cells; `columns` says what a full row has (see rowFiller). */
export interface SparseRunsBuild extends RunsBuild {
  readonly columns: string[];
}

/**
 * buildRuns for writing the table out: it empties `records` once the run rows exist, so they are
 * collected while the table is built, and leaves the rows sparse, so a writer can fill one row at a
 * time instead of holding every null cell of tens of thousands of rows (peak RSS, issue 7).
 */
export function takeRuns(records: ParsedRecord[], sink: DiagnosticSink, options: BuildRunsOptions = {}): SparseRunsBuild {
  const built = build(records, sink, options);
  return { ...built, columns: runColumns(built.rows) };
}

/** The runs of `records`, which it empties as the rows are built. */
function build(records: ParsedRecord[], sink: DiagnosticSink, options: BuildRunsOptions): RunsBuild {
  // a folder of logs alone has no run to link, but a server in it that failed is a failed configuration
  const hasRuns = records.some((r) => r.record.kind === 'run');
  const sources = collectSources(records, { spans: hasRuns });
  const inFile = hasRuns ? inFileServerSources(records) : [];
  const inFileFailures = hasRuns ? inFileFailureSources(records) : [];
  const index = indexSources(sources, inFile);
  const extraConfig = new Set<string>();
  const linked = new Map<ConfigSource, number>();
  const servedRuns: RunServedLines[] = [];
  const onServed = (runId: string, file: string, served: ServedLines) => servedRuns.push({ file, runId, served });
  const sparse = toSparseRunRows(records, sink, { take: { records }, onServed });
  records.length = 0;
  const bases: (RunRow | null)[] = dedupeRuns(sparse, sink, (row) => runPathFields(row, options.pathTemplate));
  sparse.length = 0;
  options.pause?.();
  // Pass 1, links only: a server's aggregates depend on how many runs share it.
  const offsetMs = options.clockOffsetMs ?? 0;
  const offClock: OffClockWarning[] = [];
  const links = bases.map((base) => {
    const b = base as RunRow;
    const file = String(b.source_file);
    // a run's window serves only to link it and to read its server's stats within it
    const own = sources.length > 0 ? runWindow(b) : null;
    // --clock-offset: the run's clock read on the logs' beside it (a client on UTC+2, a server container on UTC)
    const window = own && offsetMs !== 0 ? shiftWindow(own, -offsetMs) : own;
    const limits = () => batchLimits(b, runPathFields(b, options.pathTemplate));
    const identity = { engine: typeof b.engine === 'string' ? b.engine : null, client: typeof b.client === 'string' ? b.client : null, limits };
    const link = linkServer(file, window, index, identity, [{ file, line: Number(b.source_line) }, ...copyPlaces(b)]);
    const at = { file: b.source_file as never, line: Number(b.source_line), column: 1 };
    if (link.tied.length > 0) sink.report('link/ambiguous-server', at, link.tied.map((s) => s.file));
    // logs beside the run, none at its time: its own log missing or overwritten, or clocks in two time zones (a container's UTC, the host's local time)
    if (link.offClock && own && window) offClock.push({ at, own, window, logs: link.offClock, nearestMs: link.nearestMs ?? 0, concurrency: typeof b.max_concurrency === 'number' ? b.max_concurrency : null });
    const manifest = linkManifest(file, index);
    const benchConfig = linkBenchConfig(file, identity.client, index);
    const benchMetrics = linkBenchMetrics(file, identity.client, index);
    for (const src of [link.source, manifest, benchConfig, ...benchMetrics]) if (src) linked.set(src, (linked.get(src) ?? 0) + 1);
    // the offset holds for every server: one started in the run's own output brings no stats to read in a window (attach-in-file.ts reads them)
    return { window, server: link.source, manifest, benchConfig, benchMetrics };
  });
  const clockOffsets = reportOffClock(offClock, offsetMs, sink);
  // Pass 2, one run at a time: what a row is built from dies young, only the finished row stays (peak RSS).
  const rows = bases.map((_, i) => {
    const base = bases[i] as RunRow;
    const { window, server, manifest, benchConfig, benchMetrics } = links[i] as (typeof links)[number];
    bases[i] = null;
    if (i > 0 && i % PAUSE_EVERY === 0) options.pause?.();
    const file = String(base.source_file);
    const at = { file: base.source_file as never, line: Number(base.source_line), column: 1 };
    const layers: ConfigLayer[] = [
      ...(manifest ? configLayers(manifest.configs) : []),
      ...(server ? configLayers(server.configs) : []),
      { source: 'bench-args', fields: benchFields(base) },
      // the tool's own configuration file: what its result did not say of the benchmark
      ...(benchConfig ? configLayers(benchConfig.configs) : []),
      { source: 'path', fields: runPathFields(base, options.pathTemplate) },
    ];
    for (const l of layers) if (l.source !== 'bench-args') for (const k of Object.keys(l.fields)) extraConfig.add(k);
    const row: RunRow = {};
    for (const k in base) {
      const v = base[k];
      if (!DERIVED.has(k) && v !== null && v !== undefined) setCell<FieldValue>(row, k, v);
    }
    const contributed = applyLayers(row, layers, sink, at);
    canonicalCase(row);
    // a static batch is the load point of a latency benchmark, as a concurrency is a server's; a
    // multi-turn run's requests carry their conversation so far: configuration, both
    for (const c of RUN_SHAPE_COLUMNS) if (row[c] !== null && row[c] !== undefined) extraConfig.add(c);
    const rowSources = mergeSources(base.config_sources, contributed, String(base.source_format), file, Number(base.source_line));
    // more results of the run written beside it (a percentile table): its empty cells, when it is the one run of its tool there
    for (const m of benchMetrics) if (linked.get(m) === 1 && fillResults(row, m.configs)) rowSources.push(...m.configs.map((c) => `${c.origin}:${c.at.file}:${c.at.line}`));
    // what the lines of a log the run was tee'd into gave stays (attach-in-file.ts): they are the run's by their place
    const served = server ? servedLines(window, linked.get(server) === 1) : null;
    if (server && served) {
      for (const [k, v] of Object.entries(serverAggregates(server.timeline, served))) if (row[k] === null || row[k] === undefined) row[k] = v;
      // a run that measured its own rates has them: its server's intervals are a sample of the same thing
      const rates = SPEC_RATES.some((c) => row[c] !== null && row[c] !== undefined) ? null : windowRates(server, served);
      if (rates) {
        for (const c of SPEC_RATES) if (rates.record.fields[c] !== undefined) setCell<FieldValue>(row, c, rates.record.fields[c] as FieldValue);
        rowSources.push(rates.source);
      }
      // a server started in the run's own output has no stats of its own: attach-in-file.ts gave the run its lines
      if (server.timeline.length > 0) servedRuns.push({ file: server.file, runId: String(row.run_id), served });
    }
    row.config_sources = JSON.stringify(rowSources);
    addDerived(row);
    // a tool's own value of a derived column (trtllm-bench's per-GPU throughput, over its world
    // size) stays where the row lacks what the derivation needs
    for (const c of DERIVED_COLUMNS) if ((row[c] === null || row[c] === undefined) && typeof base[c] === 'number') row[c] = base[c];
    // built key by key, the row is in V8's dictionary mode (several times the memory of a fast
    // object); a spread copy is fast, and tens of thousands of these live until the table is written
    return { ...row };
  });
  const unique = withoutCopies(rows, sink);
  // what each log or manifest was linked to, of the runs kept (a copy merged away is not one more)
  const keptIds = new Set(unique.map((r) => r.run_id));
  const linkedRuns = new Map<string, number>();
  rows.forEach((row, i) => {
    if (!keptIds.has(row.run_id)) return;
    const { server, manifest, benchConfig, benchMetrics } = links[i] as (typeof links)[number];
    for (const src of [server, manifest, benchConfig, ...benchMetrics]) if (src) linkedRuns.set(src.file, (linkedRuns.get(src.file) ?? 0) + 1);
  });
  links.length = 0;
  const kept = capExtraColumns(unique, sink);
  const servers = [...sources, ...inFile.filter((s) => s.configs[0]?.origin === 'server-log'), ...inFileFailures];
  const failed = failedConfigurations(servers, linked, sink, (file) => pathFields(file, options.pathTemplate));
  for (const f of failed) for (const k of Object.keys(f.config)) extraConfig.add(k);
  const extra = [...extraConfig].filter((c) => !NOT_CONFIG.has(c) && (kept === null || kept.has(c)));
  const configColumns = [...new Set<string>([...CONFIG_COLUMNS, ...extra.sort()])];
  return { rows: unique, failedConfigurations: failed, configColumns, served: servedRuns.filter((s) => keptIds.has(s.runId)), linkedRuns, clockOffsets };
}

/** Columns a benchmark's result states that shape what its run measured: compared runs must share them. */
const RUN_SHAPE_COLUMNS = ['batch_size', 'multi_turn'] as const;

const NOT_CONFIG = new Set(['label', 'server_status', 'model_tag', 'error', 'time']);

/** Groups of off-clock runs (those beside the same logs) an offset is looked for, at most. */
const MAX_HINTED_FOLDERS = 50;

/** A run no log beside it has stats for at its time, as the warning tells of it. */
interface OffClockWarning {
  readonly at: SourcePos;
  /** Its window on its own clock, and as read on the logs' (`--clock-offset`). */
  readonly own: TimeWindow;
  readonly window: TimeWindow;
  readonly logs: readonly ConfigSource[];
  readonly nearestMs: number;
  readonly concurrency: number | null;
}

/**
 * The off-clock warnings, each with the offset that would put the runs beside the same logs onto
 * their busy stats, when exactly one does (clock-offset-hint.ts): found for them together, since a
 * single run fits more offsets than a folder of them. Returns what they offer, once each (null: none).
 */
function reportOffClock(warnings: readonly OffClockWarning[], offsetMs: number, sink: DiagnosticSink): (number | null)[] {
  const offered = new Set<number | null>();
  const byLogs = new Map<string, OffClockWarning[]>();
  for (const w of warnings) {
    const key = w.logs.map((l) => l.file).join('\u0000');
    const group = byLogs.get(key);
    if (group) group.push(w);
    else byLogs.set(key, [w]);
  }
  let hinted = 0;
  for (const group of byLogs.values()) {
    // a campaign of thousands of folders on another clock: the first folders' hints say it
    const hint = hinted++ < MAX_HINTED_FOLDERS ? offsetHint(group.map((w) => ({ window: w.window, concurrency: w.concurrency })), (group[0] as OffClockWarning).logs) : null;
    offered.add(hint === null ? null : offsetMs + hint);
    for (const w of group) {
      sink.report('link/off-clock', w.at, w.logs.length, clockText(w.own.start, w.own.hasYear), w.nearestMs, offsetMs, clockText(w.window.start, w.window.hasYear), hint === null ? null : offsetMs + hint);
    }
  }
  return [...offered].sort((a, b) => (a ?? -Infinity) - (b ?? -Infinity));
}

/** One layer per configuration record, tagged `origin:file:line`. */
export function configLayers(configs: readonly ConfigRecord[]): ConfigLayer[] {
  return configs.map((c) => ({ source: `${c.origin}:${c.at.file}:${c.at.line}`, fields: c.fields }));
}

/** Path layer: the template's values first, then the built-in heuristics. */
export function pathFields(file: string, template: PathTemplate | undefined): Record<string, FieldValue> {
  return { ...configFromPath(file), ...(template ? configFromTemplate(template, file) : {}) };
}

/** Clients that time one static batch at a time (no server, no concurrency). */
const STATIC_BATCH_CLIENTS = new Set(['vllm-bench-latency', 'sglang-bench-one-batch']);

/**
 * A run's path layer: its file's, and the path of the file its excerpt came from over it (a
 * `tail` or grep summary of a folder of logs). For a static-batch benchmark the load point a path
 * names (`bs8`, `c8`) is its batch size, not a concurrency it never had.
 */
function runPathFields(run: RunRow, template: PathTemplate | undefined): Record<string, FieldValue> {
  const excerpt = excerptPath(run);
  const own = pathFields(String(run.source_file), template);
  const fields = excerpt === null ? own : { ...own, ...configFromPath(excerpt) };
  const client = run.client;
  if (typeof client !== 'string' || !STATIC_BATCH_CLIENTS.has(client) || !Object.hasOwn(fields, 'max_concurrency')) return fields;
  const { max_concurrency: load, ...rest } = fields;
  return Object.hasOwn(rest, 'batch_size') || load === undefined ? rest : { ...rest, batch_size: load };
}

/**
 * The columns a configuration layer may set (applyLayers never takes provenance or results from
 * one): the benchmark's own arguments are everything else the run recorded.
 */
const NOT_BENCH_ARGS = new Set<string>([...PROVENANCE_COLUMNS, ...RESULT_COLUMNS, ...DERIVED_COLUMNS, ...SERVER_AGGREGATE_COLUMNS]);

function benchFields(base: RunRow): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const k in base) {
    const v = base[k];
    if (v !== null && v !== undefined && !NOT_BENCH_ARGS.has(k)) setCell(out, k, v);
  }
  return out;
}

/** Fills a row's empty cells from a tool's file of more results of it (not its `client`); true when one was filled. */
function fillResults(row: RunRow, configs: readonly ConfigRecord[]): boolean {
  let filled = false;
  for (const c of configs) {
    for (const [k, v] of Object.entries(c.fields)) {
      if (k === 'client' || v === null || (row[k] !== null && row[k] !== undefined)) continue;
      setCell<FieldValue>(row, k, v);
      filled = true;
    }
  }
  return filled;
}

/** Keeps sources an earlier step recorded (within-file attachment), naming the grammar's own `bench-args`. */
function mergeSources(previous: FieldValue | undefined, contributed: readonly string[], format: string, file: string, line: number): string[] {
  let earlier: string[] = [];
  try {
    const parsed: unknown = typeof previous === 'string' ? JSON.parse(previous) : [];
    if (Array.isArray(parsed)) earlier = parsed.filter((s): s is string => typeof s === 'string');
  } catch {
    earlier = [];
  }
  const own = `${format}:${file}:${line}`;
  const kept = earlier.filter((s) => s !== own && !contributed.includes(s));
  const out = [...contributed];
  for (const s of kept) out.splice(out.indexOf('bench-args') + 1 || out.length, 0, s);
  return [...new Set(out)];
}
