/**
 * Write-ups paste commands, server-log lines and result blocks into one file: each run takes the
 * configuration of the nearest launch command and the nearest benchmark command above it in its
 * Markdown section, and, unless it measured its own, speculative-decoding rates from the server
 * stats lines since the previous run's block, up to the end of its own (weighted by drafted tokens
 * where the lines count them). The run's own values win; a disagreement is a `config/conflict`
 * warning. A run printed in its server's log (not a write-up) takes the server aggregates of the
 * same lines (server-aggregates.ts).
 * Only within one file: linking across files is src/analyze's business.
 */
import type { DiagnosticSink } from '../core/diagnostic.js';
import { type ConfigRecord, type RunRecord, runLastLine, type TimelineRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { commandLabeler } from './command-label.js';
import { setCell } from '../core/cells.js';
import { countBelow, type Located, lineOfLocated, lineOfNumber } from './line-search.js';
import { type ServedLines, serverAggregates } from './server-aggregates.js';
import { isMarkdown } from './server-sources.js';
import { type RatesLine, ratesLines, runRates, SPEC_RATES } from './spec-rates.js';
import { isOfflineClient } from './offline-clients.js';
import { engineNamedIn } from './engine.js';
import { sameValue } from './config-layers.js';

type Row = Record<string, FieldValue>;

/** Fields of a command record that describe the record itself (grammars/launch-command). */
const META = new Set(['command', 'section_start', 'section_end', 'server_port', 'target_port']);
const ORIGINS = ['launch-command', 'bench-command'] as const;

/**
 * One file's commands, stats lines and run positions, each in line order, so a run finds what is
 * above it by a binary search: a sweep log of 10,000 commands and runs looked at every one for
 * every run (minutes).
 */
interface FileIndex {
  readonly configs: Located<ConfigRecord>[];
  /** The configs of each origin (launch or benchmark command). */
  readonly byOrigin: Map<string, Located<ConfigRecord>[]>;
  readonly timelines: Located<RatesLine>[];
  /** The file's stats lines, for a run's server aggregates; none in a write-up (see inFileServerSources). */
  readonly series: TimelineRecord[];
  /** Where each run's block starts (its line), in order. */
  readonly runLines: number[];
  /** Where each run's block ends (its last value's line), by its start. */
  readonly runEnds: Map<number, number>;
  /** Where a server started in the file (its log's configuration records). */
  readonly serverStarts: number[];
  /** The commands of each origin, labelled against each other (built on first use). */
  readonly labelers: Map<string, (command: string) => string | null>;
}

/** Adds in-file context to one run's row, in place; returns that row. */
export type Attach = (row: Row, run: RunRecord) => Row;

/** Told which lines of its server's log, the run's own file, a run (its row's `run_id`) took its server aggregates from. */
export type OnServed = (runId: string, file: string, served: ServedLines) => void;

/** Indexes every file's commands, stats lines and run positions once; the result attaches per run. */
export function inFileAttacher(records: readonly ParsedRecord[], sink?: DiagnosticSink, onServed?: OnServed): Attach {
  // Only files that hold runs (a server log's stats lines attach to no run) and something to attach
  // to them: most files of a campaign hold one result and nothing else, and an index of each (its
  // arrays and maps) was some 700 bytes a file, 56 MB for 80,000 result files, while the table is built.
  const withContext = new Set<string>();
  for (const { record } of records) if (record.kind === 'config' || record.kind === 'timeline') withContext.add(record.at.file);
  const files = new Map<string, FileIndex>();
  for (const { record } of records) {
    if (record.kind !== 'run' || !withContext.has(record.at.file)) continue;
    let f = files.get(record.at.file);
    if (!f) files.set(record.at.file, (f = { configs: [], byOrigin: new Map(), timelines: [], series: [], runLines: [], runEnds: new Map(), serverStarts: [], labelers: new Map() }));
    f.runLines.push(record.at.line);
    f.runEnds.set(record.at.line, Math.max(f.runEnds.get(record.at.line) ?? 0, runLastLine(record)));
  }
  for (const { format, record } of records) {
    const f = files.get(record.at.file);
    if (!f) continue;
    if (record.kind === 'config' && (ORIGINS as readonly string[]).includes(record.origin)) {
      f.configs.push({ record, source: `${record.origin}:${record.at.file}:${record.at.line}` });
    } else if (record.kind === 'config' && record.origin === 'server-log') {
      f.serverStarts.push(record.at.line);
    } else if (record.kind === 'timeline') {
      for (const line of ratesLines(record.series)) f.timelines.push({ record: line, source: `${format}:${record.at.file}:${line.at.line}` });
      if (!isMarkdown(record.at.file)) f.series.push(record);
    }
  }
  for (const f of files.values()) {
    // stable sorts: records of one line keep the order the grammars gave them
    f.configs.sort(byLine);
    f.timelines.sort(byLine);
    f.runLines.sort((a, b) => a - b);
    f.serverStarts.sort((a, b) => a - b);
    for (const o of ORIGINS) f.byOrigin.set(o, f.configs.filter((c) => c.record.origin === o));
  }
  return (row, run) => attach(row, run, files.get(run.at.file), sink, onServed);
}

const byLine = (a: Located<{ readonly at: { readonly line: number } }>, b: Located<{ readonly at: { readonly line: number } }>): number => a.record.at.line - b.record.at.line;

function attach(row: Row, run: RunRecord, file: FileIndex | undefined, sink: DiagnosticSink | undefined, onServed: OnServed | undefined): Row {
  // nothing in the file to attach (most files: one result each): the row as it is
  if (!file || (file.configs.length === 0 && file.timelines.length === 0 && file.series.length === 0)) return row;
  const r = run.at.line;
  const section = sectionOf(file.configs, r);
  const owners = new Map<string, string>(Object.keys(run.fields).map((c) => [c, `${String(row.source_format)}:${run.at.file}:${r}`]));
  const sources: string[] = parseSources(row.config_sources);
  // an offline benchmark runs its engine itself: a server launched in the same file is not its engine
  const origins = isOfflineClient(row.client) ? ORIGINS.filter((o) => o !== 'launch-command') : ORIGINS;
  const named = typeof row.label === 'string' ? engineNamedIn(row.label) : null;
  const bench = origins.includes('bench-command') ? nearestCommand(file.byOrigin.get('bench-command') ?? [], r) : null;
  const target = bench?.record.fields.target_port;
  const nearest = origins.map((o) => (o === 'bench-command' ? bench : nearestCommand(file.byOrigin.get(o) ?? [], r, named, typeof target === 'number' ? target : null)));
  for (const config of nearest) {
    if (!config) continue;
    const fields = Object.entries(config.record.fields).filter(([c, v]) => !META.has(c) && !(typeof v === 'string' && v.includes('$')));
    if (fill(row, fields, config.source, owners, run, sink)) sources.push(config.source);
  }
  if (row.label === null || row.label === undefined) {
    const closest = nearest.filter((c) => c !== null).sort((a, b) => b.record.at.line - a.record.at.line)[0];
    const command = closest?.record.fields.command;
    // null when the command names no configuration (a sweep's commands that vary only the load)
    if (closest && typeof command === 'string') row.label = labelerOf(file, closest.record.origin)(command);
  }
  // a server line printed as a block is (a tee'd log) is of the run that block ends: the block's lines are the run's too
  const previousStart = file.runLines[countBelow(file.runLines, r, lineOfNumber) - 1];
  const previousRun = previousStart === undefined ? 0 : (file.runEnds.get(previousStart) ?? previousStart);
  const end = file.runEnds.get(r) ?? r;
  // a run that measured its own rates has them: an interval's are a sample of the same thing, neither to add nor to compare
  const measured = SPEC_RATES.some((c) => row[c] !== null && row[c] !== undefined);
  const floor = section?.start ?? 1;
  const stats = measured ? null : runRates(file.timelines, { line: end + 1, after: Math.max(previousRun, floor - 1), floor, starts: file.serverStarts });
  if (stats) {
    const fields = SPEC_RATES.flatMap((c): [string, FieldValue][] => {
      const v = stats.record.fields[c];
      return v === undefined ? [] : [[c, v]];
    });
    if (fill(row, fields, stats.source, owners, run, sink)) sources.push(stats.source);
  }
  // a server's log the run was tee'd into: its lines while the run ran (a server started after the previous run is its own)
  if (file.series.length > 0) {
    const after = Math.max(previousRun, file.serverStarts[countBelow(file.serverStarts, r, lineOfNumber) - 1] ?? 0);
    const served: ServedLines = { kind: 'between', after, before: end + 1 };
    for (const [column, value] of Object.entries(serverAggregates(file.series, served))) if (row[column] === null || row[column] === undefined) row[column] = value;
    onServed?.(String(row.run_id), run.at.file, served);
  }
  row.config_sources = JSON.stringify(sources);
  return row;
}

/** Sets missing columns; returns whether anything was set. Disagreements are reported. */
function fill(row: Row, fields: readonly [string, FieldValue][], source: string, owners: Map<string, string>, run: RunRecord, sink?: DiagnosticSink): boolean {
  let used = false;
  for (const [column, value] of fields) {
    const have = row[column];
    if (have === null || have === undefined) {
      if (sentMoreThan(row, column, value)) {
        // `--num-prompts 20` above a run that completed 200: the command shown is not the one that ran
        sink?.report('config/conflict', run.at, column, `at least ${show(row.completed ?? null)} (the requests completed, ${owners.get('completed') ?? 'run'})`, `${show(value)} (${source})`);
        continue;
      }
      setCell(row, column, value);
      owners.set(column, source);
      used = true;
    } else if (!sameValue(column, have, value)) {
      sink?.report('config/conflict', run.at, column, `${show(have)} (${owners.get(column) ?? 'run'})`, `${show(value)} (${source})`);
    }
  }
  return used;
}

function labelerOf(file: FileIndex, origin: string): (command: string) => string | null {
  let labeler = file.labelers.get(origin);
  if (!labeler) {
    const commands = (file.byOrigin.get(origin) ?? []).flatMap((c) => (typeof c.record.fields.command === 'string' ? [c.record.fields.command] : []));
    file.labelers.set(origin, (labeler = commandLabeler(commands)));
  }
  return labeler;
}

/**
 * The command of one origin nearest above `line` whose Markdown section holds it (a command's
 * section takes in its subsections, so one further up may hold the line when the nearest does not);
 * with `engine`, that engine's nearest launch (a run captioned `vLLM results` below an SGLang
 * launch pasted after the vLLM one), never another engine's; with `port` (the run's benchmark
 * command's), never a launch listening on another.
 */
function nearestCommand(configs: readonly Located<ConfigRecord>[], line: number, engine: string | null = null, port: number | null = null): Located<ConfigRecord> | null {
  let first: Located<ConfigRecord> | null = null;
  for (let k = countBelow(configs, line, lineOfLocated) - 1; k >= 0; k--) {
    const c = configs[k] as Located<ConfigRecord>;
    if (!inSection(c.record, line)) continue;
    // a benchmark aimed at port 7013 did not measure the server launched on 8000
    const listens = c.record.fields.server_port;
    if (port !== null && typeof listens === 'number' && listens !== port) continue;
    if (engine === null) return firstOnItsLine(configs, k);
    if (c.record.fields.engine === engine) return c;
    // a run captioned with one engine is never another engine's
    if (typeof c.record.fields.engine !== 'string') first ??= firstOnItsLine(configs, k);
  }
  return first;
}

/** Of the commands on one line (`a && b`), the first. */
function firstOnItsLine(configs: readonly Located<ConfigRecord>[], k: number): Located<ConfigRecord> {
  const at = lineOfLocated(configs[k] as Located<ConfigRecord>);
  while (k > 0 && lineOfLocated(configs[k - 1] as Located<ConfigRecord>) === at) k--;
  return configs[k] as Located<ConfigRecord>;
}

/** A command applies to runs below it up to the end of its section (the whole file without headings). */
function inSection(config: ConfigRecord, line: number): boolean {
  const end = config.fields.section_end;
  return typeof end !== 'number' || line <= end;
}

/**
 * The Markdown section of `line`, as a command in it records it. The commands of a section are
 * consecutive in line order: if any is in the section of `line`, the last one above it or the
 * first one from it on is.
 */
function sectionOf(configs: readonly Located<ConfigRecord>[], line: number): { start: number } | null {
  const k = countBelow(configs, line, lineOfLocated);
  for (const c of [configs[k - 1], configs[k]]) {
    const { section_start: start, section_end: end } = c?.record.fields ?? {};
    if (typeof start === 'number' && typeof end === 'number' && start <= line && line <= end) return { start };
  }
  return null;
}

function parseSources(value: FieldValue | undefined): string[] {
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** A request count below the requests the run completed and failed. */
function sentMoreThan(row: Row, column: string, value: FieldValue): boolean {
  if (column !== 'num_prompts' || typeof value !== 'number' || typeof row.completed !== 'number') return false;
  return row.completed + (typeof row.failed === 'number' ? row.failed : 0) > value;
}

function show(v: FieldValue): string {
  return typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
}
