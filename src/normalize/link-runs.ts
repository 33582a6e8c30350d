import { seriesValue } from '../core/timeline-series.js';
import { type ConfigSource, neverServed, sourceFailure } from './server-sources.js';
import { configFromPath } from './path-config.js';
import { SPAN_SLACK_MS, spanDistance, spanOverlaps, type TimeWindow } from './time-window.js';
import { isOfflineClient } from './offline-clients.js';

/** Words in log file names that say nothing about the configuration. */
const GENERIC = new Set(['bench', 'benchmark', 'serve', 'server', 'serving', 'log', 'logs', 'result', 'results', 'run', 'out', 'output', 'client', 'vllm', 'sglang', 'trtllm', 'txt', 'json']);

/** Configuration words of a file name: `bench-draft-model-c16.log` → draft, model. */
export function nameTokens(file: string): Set<string> {
  const base = (file.split('/').at(-1) ?? file).replace(/\.[a-z0-9]+$/i, '').toLowerCase();
  const tokens = new Set(base.split(/[-_.\s=]+/).filter((t) => t.length > 0 && !GENERIC.has(t) && !/^(?:c|bs|conc|qps|rps|rate)?\d+$/.test(t)));
  // a lone number is a load point that differs between the runs of one server; two or more in a row
  // name its configuration (`bm_log_128_2048_requestrate_8` beside `vllm_log_128_2048`: auto_tune.sh)
  for (const numbers of base.matchAll(/(?:^|[-_.\s=])(\d+(?:[-_]\d+)+)(?=$|[-_.\s=])/g)) tokens.add(`#${(numbers[1] ?? '').replaceAll('-', '_')}`);
  return tokens;
}

function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '' : file.slice(0, i);
}


/** What linking needs to know about the run itself. */
export interface RunIdentity {
  readonly engine: string | null;
  readonly client: string | null;
  /** The batch limits the run states (its own, or its file's name's): asked only when a server beside it states some. */
  readonly limits?: () => BatchLimits | undefined;
}

/** The engine a source describes, when its configuration names one. */
function sourceEngine(src: ConfigSource): string | null {
  for (const c of src.configs) if (typeof c.fields.engine === 'string') return c.fields.engine;
  for (const t of src.timeline) {
    const engine = t.series.length > 0 ? seriesValue(t.series, 'engine', 0) : undefined;
    if (typeof engine === 'string') return engine;
  }
  return null;
}

/** A server source with what linking asks of it, worked out once. */
interface ServerEntry {
  readonly src: ConfigSource;
  readonly engine: string | null;
  readonly tokens: ReadonlySet<string>;
  readonly healthy: number;
  /** The batch limits it ran with, by its configuration or its file's name (BATCH_LIMITS). */
  readonly limits?: BatchLimits;
}

/**
 * The settings a run and a server can both name whose difference tells them apart for certain
 * (auto_tune.sh's runs and servers name each other only so): a server that states other values
 * than the run's own served another run.
 */
const BATCH_LIMITS = ['max_num_seqs', 'max_num_batched_tokens'] as const;
export type BatchLimits = Partial<Record<(typeof BATCH_LIMITS)[number], number>>;

/** The batch limits among `fields`, or none. */
export function batchLimits(...fields: readonly Readonly<Record<string, unknown>>[]): BatchLimits | undefined {
  const out: BatchLimits = {};
  for (const k of BATCH_LIMITS) {
    const v = fields.map((f) => f[k]).find((x) => typeof x === 'number');
    if (typeof v === 'number') out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function limitsConflict(a: BatchLimits | undefined, b: BatchLimits | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return BATCH_LIMITS.some((k) => a[k] !== undefined && b[k] !== undefined && a[k] !== b[k]);
}

/**
 * A campaign's sources as linking reads them: the servers of each directory (in the sources'
 * order) and the manifests. Each run looks only in its directory and its parent; looking through
 * every source for every run, naming each file's words again each time, took 14 s for 3,000 runs
 * beside 3,000 server logs.
 */
export interface SourceIndex {
  readonly serversByDir: ReadonlyMap<string, readonly ServerEntry[]>;
  readonly manifests: readonly ConfigSource[];
  /** Load generators' own configuration files (server-sources.ts, `bench-config`), by directory. */
  readonly benchConfigsByDir: ReadonlyMap<string, readonly ConfigSource[]>;
  /** Load generators' files of more results of a run (`bench-metrics`), by directory. */
  readonly benchMetricsByDir: ReadonlyMap<string, readonly ConfigSource[]>;
  /** The servers started in each file that holds runs, in line order (server-sources.ts, inFileServerSources). */
  readonly serversInFile: ReadonlyMap<string, readonly ServerEntry[]>;
}

export function indexSources(sources: readonly ConfigSource[], inFile: readonly ConfigSource[] = []): SourceIndex {
  const serversInFile = new Map<string, ServerEntry[]>();
  for (const src of inFile) {
    let entries = serversInFile.get(src.file);
    if (!entries) serversInFile.set(src.file, (entries = []));
    // a server of the file that crashed later served the runs before its crash: only a failed start never served
    entries.push({ src, engine: sourceEngine(src), tokens: new Set(), healthy: src.configs[0]?.fields.server_status === 'failed-start' ? 0 : 1 });
  }
  const serversByDir = new Map<string, ServerEntry[]>();
  const manifests: ConfigSource[] = [];
  const benchConfigsByDir = new Map<string, ConfigSource[]>();
  const benchMetricsByDir = new Map<string, ConfigSource[]>();
  for (const src of sources) {
    if (src.kind === 'manifest') manifests.push(src);
    // a campaign of thousands of runs has as many of these (one per run's folder): each run looks in its own folders only
    const byDir = src.kind === 'bench-config' ? benchConfigsByDir : src.kind === 'bench-metrics' ? benchMetricsByDir : null;
    if (byDir) {
      const d = dirOf(src.file);
      byDir.set(d, [...(byDir.get(d) ?? []), src]);
    }
    // a server that never served is no run's (it is a failed configuration)
    if (src.kind !== 'server' || neverServed(src)) continue;
    const d = dirOf(src.file);
    let entries = serversByDir.get(d);
    if (!entries) serversByDir.set(d, (entries = []));
    const limits = batchLimits(...src.configs.map((c) => c.fields), configFromPath(src.file));
    entries.push({ src, engine: sourceEngine(src), tokens: nameTokens(src.file), healthy: sourceFailure(src) === null ? 1 : 0, ...(limits ? { limits } : {}) });
  }
  return { serversByDir, manifests, benchConfigsByDir, benchMetricsByDir, serversInFile };
}

/** Where a run was printed: its own line, and its copies' (the stdout block of a run whose result JSON was kept). */
export interface RunPlace {
  readonly file: string;
  readonly line: number;
}

/** Result of linking one run: the chosen source, or the tied candidates when none could be chosen. */
export interface LinkResult {
  readonly source: ConfigSource | null;
  readonly tied: readonly ConfigSource[];
  /** Server logs beside the run left out only because their stats are at other times than the run (none linked). */
  readonly offClock?: readonly ConfigSource[];
  /** Of those, how far the nearest one's stats lie from the run, in ms (spanDistance: negative = before it). */
  readonly nearestMs?: number;
}

/**
 * Picks the server log / launch command of a run among the sources in the run's directory or its
 * parent. Ranking: when both the run and the log have times, a log whose stats span overlaps the
 * run comes first, then one whose span ends or starts within SPAN_SLACK_MS of it, and a log further
 * off is excluded; then the number of configuration words the
 * file names share (`draft-model-serve.log` for `bench-draft-model-c16.log`); then a server that
 * started before one that failed to; then the same directory before the parent. A tie at the top
 * links nothing (the caller reports it). A server of another engine than the run's is never a
 * candidate. Before all of these, a server started above a place where the run was printed, in
 * that file (its own line first, then its copies': a tee'd log's block whose result JSON was
 * kept). Offline benchmarks (vLLM latency and throughput, trtllm-bench, SGLang one-batch and
 * offline) run their engine in their own process: they take only that, the engine that logged its
 * start above them in their own output, never a server beside them.
 */
export function linkServer(runFile: string, window: TimeWindow | null, sources: SourceIndex, run: RunIdentity = { engine: null, client: null }, printedAt: readonly RunPlace[] = []): LinkResult {
  const offline = isOfflineClient(run.client);
  for (const place of printedAt) {
    const own = serverAbove(sources.serversInFile.get(place.file) ?? [], place.line, run.engine);
    if (own) return { source: own, tied: [] };
  }
  if (offline) return inProcessStats(runFile, sources, run.client as string);
  const dir = dirOf(runFile);
  const parent = dir === '' ? null : dirOf(dir);
  let tokens: Set<string> | null = null; // read only when there is a candidate (most runs of a large campaign have none)
  let runLimits: { of: BatchLimits | undefined } | undefined;
  const ranked: { src: ConfigSource; covers: number; shared: number; healthy: number; near: number }[] = [];
  const offClock: ConfigSource[] = [];
  let nearestMs = Number.POSITIVE_INFINITY;
  // the run's own directory, then its parent: `near` ranks them so, and ties are within one directory
  const candidates = [...(sources.serversByDir.get(dir) ?? []), ...(parent === null || parent === dir ? [] : (sources.serversByDir.get(parent) ?? []))];
  for (const { src, engine, tokens: theirs, healthy, limits } of candidates) {
    // an offline benchmark's own engine statistics served no other run
    if (src.inProcessOf !== undefined) continue;
    if (run.engine !== null && engine !== null && engine !== run.engine) continue;
    if (limits !== undefined && limitsConflict((runLimits ??= { of: run.limits?.() }).of, limits)) continue;
    let covers = 0;
    if (window && src.span) {
      // a span that covers the run outranks one that comes within a stats interval of it
      if (spanOverlaps(window, src.span.first, src.span.last)) covers = 2;
      else if (spanOverlaps(window, src.span.first, src.span.last, SPAN_SLACK_MS)) covers = 1;
      else {
        offClock.push(src);
        const d = spanDistance(window, src.span.first, src.span.last);
        if (Math.abs(d) < Math.abs(nearestMs)) nearestMs = d;
        continue;
      }
    }
    const own = (tokens ??= nameTokens(runFile));
    let shared = 0;
    for (const t of theirs) if (own.has(t)) shared++;
    ranked.push({ src, covers, shared, healthy, near: dirOf(src.file) === dir ? 1 : 0 });
  }
  const same = (a: (typeof ranked)[number], b: (typeof ranked)[number]) => a.covers === b.covers && a.shared === b.shared && a.healthy === b.healthy && a.near === b.near;
  ranked.sort((a, b) => b.covers - a.covers || b.shared - a.shared || b.healthy - a.healthy || b.near - a.near);
  const [top, second] = ranked;
  if (!top) return offClock.length > 0 ? { source: null, tied: [], offClock, nearestMs } : { source: null, tied: [] };
  if (second && same(second, top)) return { source: null, tied: ranked.filter((r) => same(r, top)).map((r) => r.src) };
  return { source: top.src, tied: [] };
}

/**
 * An offline benchmark's own engine statistics (trtllm-bench's `--iteration_log`): the log of them
 * in the run's folder that its client wrote, the one whose name shares the most words with the
 * run's file when there are several, load points included (`iter_c8.log` beside `report_c8.json`:
 * one invocation, one run, one log); none on a tie.
 */
function inProcessStats(runFile: string, sources: SourceIndex, client: string): LinkResult {
  const logs = (sources.serversByDir.get(dirOf(runFile)) ?? []).filter((e) => e.src.inProcessOf === client);
  if (logs.length <= 1) return { source: logs[0]?.src ?? null, tied: [] };
  const words = (file: string) => new Set((file.split('/').at(-1) ?? file).replace(/\.[a-z0-9]+$/i, '').toLowerCase().split(/[-_.\s=]+/));
  const own = words(runFile);
  const shared = (e: ServerEntry) => [...words(e.src.file)].filter((t) => own.has(t)).length;
  const ranked = logs.map((e) => ({ e, n: shared(e) })).sort((a, b) => b.n - a.n);
  const [top, second] = ranked as [(typeof ranked)[number], (typeof ranked)[number]];
  return top.n > second.n ? { source: top.e.src, tied: [] } : { source: null, tied: ranked.filter((r) => r.n === top.n).map((r) => r.e.src) };
}

/**
 * The server that serves a run printed in its own log: the last one started above the run (a
 * restarted server replaces the one before), passing over a start that failed and a server of
 * another engine than the run's. It outranks every server log beside the file. A launch command
 * nearer above the run is a later start, whose configuration the run has from its file already:
 * no server log above that command is the run's.
 */
function serverAbove(servers: readonly ServerEntry[], runLine: number, engine: string | null): ConfigSource | null {
  for (let k = servers.length - 1; k >= 0; k--) {
    const s = servers[k] as ServerEntry;
    const config = s.src.configs[0];
    if (config === undefined || config.at.line >= runLine) continue;
    if (config.origin === 'launch-command') return null;
    if (s.healthy === 1 && (engine === null || s.engine === null || s.engine === engine)) return s.src;
  }
  return null;
}

/** The runner manifest that governs a run: the deepest one in the run's directory or above it. */
export function linkManifest(runFile: string, sources: SourceIndex): ConfigSource | null {
  return deepestAbove(runFile, sources.manifests);
}

/**
 * The configuration file of the load generator that made a run (`client`): the deepest one in the
 * run's directory or above it that names that tool. Another tool's runs beside it are not its.
 */
export function linkBenchConfig(runFile: string, client: string | null, sources: SourceIndex): ConfigSource | null {
  if (client === null || sources.benchConfigsByDir.size === 0) return null;
  for (let dir = dirOf(runFile); ; dir = dirOf(dir)) {
    const own = sources.benchConfigsByDir.get(dir)?.find((src) => describes(src, client));
    if (own) return own;
    if (dir === '') return null;
  }
}

function describes(src: ConfigSource, client: string): boolean {
  return src.configs.some((c) => c.fields.client === client);
}

/**
 * The files of more results of a run (`bench-metrics`) in the run's own directory that name the
 * run's tool, in path order: one result file and its companions are written side by side (EvalScope
 * writes up to three: percentiles, per-conversation and windowed-throughput summaries).
 */
export function linkBenchMetrics(runFile: string, client: string | null, sources: SourceIndex): readonly ConfigSource[] {
  if (client === null) return [];
  return sources.benchMetricsByDir.get(dirOf(runFile))?.filter((src) => describes(src, client)) ?? [];
}

function deepestAbove(runFile: string, candidates: readonly ConfigSource[]): ConfigSource | null {
  let best: ConfigSource | null = null;
  for (const src of candidates) {
    const d = dirOf(src.file);
    if (d !== '' && !runFile.startsWith(`${d}/`)) continue;
    if (!best || d.length > dirOf(best.file).length) best = src;
  }
  return best;
}
