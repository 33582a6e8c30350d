import type { ConfigRecord, FailureRecord, TimelineRecord } from '../core/records.js';
import type { RelPath } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { type Instant, seriesClock } from './time-window.js';

/**
 * A file that describes a server (log, launch command), a runner variant (manifest) or a load
 * generator's runs (its own configuration file, `bench-config`; more results of its run,
 * `bench-metrics`), not a run.
 */
export interface ConfigSource {
  readonly file: RelPath;
  readonly kind: 'server' | 'manifest' | 'bench-config' | 'bench-metrics' | 'failure';
  readonly configs: readonly ConfigRecord[];
  readonly timeline: readonly TimelineRecord[];
  readonly failures: readonly FailureRecord[];
  /** First and last stats-line time, when the lines carry one. */
  readonly span: { readonly first: Instant; readonly last: Instant } | null;
  /** The benchmark whose in-process engine logged the stats (TimelineRecord.inProcessOf); none for a server's. */
  readonly inProcessOf?: string;
}

interface Bucket {
  runs: number;
  configs: ConfigRecord[];
  timeline: TimelineRecord[];
  failures: FailureRecord[];
}

/**
 * Groups the records of files that hold no run into configuration sources: server logs and launch
 * commands (`server`) and runner manifests (`manifest`). Files holding runs keep their own
 * configuration (the within-file attachment step), so they are not link targets.
 */
export function collectSources(records: readonly ParsedRecord[], options: { readonly spans?: boolean } = {}): ConfigSource[] {
  // a stats line's time is read only to link runs by it (a scan of logs alone wants their failures only)
  const spans = options.spans ?? true;
  const byFile = new Map<RelPath, Bucket>();
  for (const { record } of records) {
    const file = record.at.file;
    let b = byFile.get(file);
    if (!b) byFile.set(file, (b = { runs: 0, configs: [], timeline: [], failures: [] }));
    if (record.kind === 'run') b.runs++;
    else if (record.kind === 'config') b.configs.push(record);
    else if (record.kind === 'timeline') b.timeline.push(record);
    else b.failures.push(record);
  }
  const out: ConfigSource[] = [];
  for (const [file, b] of [...byFile].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
    if (b.runs > 0) continue;
    const manifest = b.configs.some((c) => c.origin === 'manifest');
    const server = b.configs.some((c) => c.origin === 'server-log' || c.origin === 'launch-command') || b.timeline.length > 0;
    const benchConfig = b.configs.some((c) => c.origin === 'bench-config');
    const benchMetrics = b.configs.some((c) => c.origin === 'bench-metrics');
    if (!manifest && !server && !benchConfig && !benchMetrics && b.failures.length === 0) continue;
    // a failure with no server of its own (a sweep's failure record) serves no run: never linked, a failed configuration
    const kind = manifest ? 'manifest' : server ? 'server' : benchConfig ? 'bench-config' : benchMetrics ? 'bench-metrics' : 'failure';
    if (kind === 'failure' && b.failures.length > 1) {
      out.push(...failureSources(file, b.failures, b.configs));
      continue;
    }
    const inProcessOf = b.timeline[0]?.inProcessOf;
    const source: ConfigSource = { file, kind, configs: b.configs, timeline: b.timeline, failures: b.failures, span: spans ? spanOf(b.timeline) : null };
    out.push(inProcessOf === undefined ? source : { ...source, inProcessOf });
  }
  return out;
}

/**
 * The servers started in files that hold runs: a script's output under one `tee` (the server
 * started in the background, the benchmark after it, maybe a server restarted per configuration)
 * holds both. One source per server start, its configuration only (its stats lines are the whole
 * file's, of every server in it); link-runs.ts gives each run of the file the last one above it.
 * A launch command in the file is a server start too (its configuration is the within-file
 * attachment's, attach-in-file.ts): one between a server's log and a run ends that server's runs.
 * A write-up (Markdown) has none: the server log pasted in one section says nothing about the
 * result block of another. A crash in the file is its last server's failure: a server that
 * crashed before serving any run is a failed configuration (failed-configurations.ts).
 */
export function inFileServerSources(records: readonly ParsedRecord[]): ConfigSource[] {
  const withRuns = new Set<RelPath>();
  for (const { record } of records) if (record.kind === 'run' && !isMarkdown(record.at.file)) withRuns.add(record.at.file);
  const starts: { config: ConfigRecord; failures: FailureRecord[] }[] = [];
  const failures: FailureRecord[] = [];
  for (const { record } of records) {
    if (!withRuns.has(record.at.file)) continue;
    if (record.kind === 'failure') failures.push(record);
    else if (record.kind === 'config' && (record.origin === 'server-log' || record.origin === 'launch-command')) starts.push({ config: record, failures: [] });
  }
  // by file, then line; a stable sort keeps the grammars' order within a line
  starts.sort((a, b) => (a.config.at.file < b.config.at.file ? -1 : a.config.at.file > b.config.at.file ? 1 : a.config.at.line - b.config.at.line));
  // a crash belongs to the server started last above it in its file (failedConfigurations: one that served no run)
  const servers = new Map<RelPath, typeof starts>();
  for (const s of starts) {
    if (s.config.origin !== 'server-log') continue;
    const list = servers.get(s.config.at.file);
    if (list) list.push(s);
    else servers.set(s.config.at.file, [s]);
  }
  for (const f of failures) servers.get(f.at.file)?.findLast((s) => s.config.at.line <= f.at.line)?.failures.push(f);
  return starts.map(({ config, failures: own }) => ({ file: config.at.file, kind: 'server', configs: [config], timeline: [], failures: own, span: null }));
}

/**
 * The failures in files that hold runs that no server started in the file owns and that were
 * written with their configuration (auto_tune.sh's combinations that missed their latency limit,
 * among those that met it): each is a configuration that failed.
 */
export function inFileFailureSources(records: readonly ParsedRecord[]): ConfigSource[] {
  const byFile = new Map<RelPath, { runs: boolean; servers: number[]; failures: FailureRecord[]; configs: ConfigRecord[] }>();
  for (const { record } of records) {
    const file = record.at.file;
    let f = byFile.get(file);
    if (!f) byFile.set(file, (f = { runs: false, servers: [], failures: [], configs: [] }));
    if (record.kind === 'run') f.runs = true;
    else if (record.kind === 'failure') f.failures.push(record);
    else if (record.kind === 'config' && record.origin === 'server-log') f.servers.push(record.at.line);
    else if (record.kind === 'config' && record.origin === 'sweep') f.configs.push(record);
  }
  const out: ConfigSource[] = [];
  for (const [file, f] of [...byFile].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
    if (!f.runs || isMarkdown(file)) continue;
    const first = Math.min(...f.servers);
    // a failure below a server's start is that server's (inFileServerSources)
    const orphans = f.failures.filter((x) => x.at.line < first);
    // only a failure written with its configuration: a client's traceback after its run is no configuration's
    if (orphans.length > 0) out.push(...failureSources(file, orphans, f.configs).filter((src) => src.configs.length > 0));
  }
  return out;
}

/**
 * One source per failure of a file whose failures are each their own configuration's (a sweep's
 * failure records, auto_tune.sh's combinations that missed their limit), each with the `sweep`
 * configuration written at or above it and below the failure before it.
 */
function failureSources(file: RelPath, failures: readonly FailureRecord[], configs: readonly ConfigRecord[]): ConfigSource[] {
  let previous = 0;
  return [...failures]
    .sort((a, b) => a.at.line - b.at.line)
    .map((failure) => {
      const own = configs.filter((c) => c.origin === 'sweep' && c.at.line > previous && c.at.line <= failure.at.line).slice(-1);
      previous = failure.at.line;
      return { file, kind: 'failure', configs: own, timeline: [], failures: [failure], span: null };
    });
}

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;

/** A write-up: what is pasted in one section says nothing about another's result block. */
export function isMarkdown(file: string): boolean {
  return MARKDOWN.test(file);
}

function spanOf(timeline: readonly TimelineRecord[]): ConfigSource['span'] {
  let first: Instant | null = null;
  let last: Instant | null = null;
  for (const { series } of timeline) {
    const clock = seriesClock(series);
    for (let i = 0; i < series.length; i++) {
      const ms = clock.ms[i] as number;
      if (Number.isNaN(ms)) continue;
      // the first of equal instants is kept as first, the last as last (what a stable sort gave)
      if (first === null || ms < first.ms) first = { ms, hasYear: clock.hasYear[i] === 1 };
      if (last === null || ms >= last.ms) last = { ms, hasYear: clock.hasYear[i] === 1 };
    }
  }
  return first !== null && last !== null ? { first, last } : null;
}

/**
 * A server log none of whose starts became ready, each crashing first, and with no stats line: it
 * never served a request, so no run beside it was its (a run with no batch limits beside the one
 * crashed server of a tuning sweep took that server's configuration before).
 */
export function neverServed(src: ConfigSource): boolean {
  return src.configs.length > 0 && src.configs.every((c) => c.fields.server_status === 'failed-start') && src.timeline.every((t) => t.series.length === 0);
}

/** The failure of a source that never served: a failure record, or a server status of `failed-start`. */
export function sourceFailure(src: ConfigSource): { exception: string; message: string; line: number } | null {
  const f = src.failures[0];
  if (f) return { exception: f.exception, message: f.message, line: f.at.line };
  const failed = src.configs.find((c) => c.fields.server_status === 'failed-start');
  return failed ? { exception: 'failed-start', message: 'server failed to start', line: failed.at.line } : null;
}
