/**
 * The streaming reader of one vLLM server log: prefix layers off, then each message is a
 * startup fact, a periodic line, part of a crash, an access/request-log line (cheap early exit)
 * or unrecognized (counted once per file). Holds one config builder, one pending timeline record
 * and one traceback state per process: memory does not grow with the log.
 */
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { LineParser } from '../../src/core/grammar.js';
import { FieldMapBuilder, type BenchRecord, type ConfigRecord, type FailureRecord } from '../../src/core/records.js';
import type { FieldValue, RelPath } from '../../src/core/types.js';
import { mergeFailures, reportFailures, TracebackTracker } from '../../src/parse/traceback.js';
import { setCell } from '../../src/core/cells.js';
import { LogClock } from './clock.js';
import { CudaGraphTable, tablePart } from './cudagraph.js';
import { gluedRecordAt, type LinePrefix, parsePrefix } from './prefix.js';
import { readStartupLine } from './startup.js';
import { readStatsLine, type StatsPartial } from './stats.js';
import { TimelineBuilder } from './timeline.js';

/**
 * Lines never read, whatever else they hold (the pipeline skips them before decoding): uvicorn
 * access lines and the request log of `--enable-log-requests`, whose prompts may say anything.
 */
export const SKIP: readonly string[] = ['HTTP/1.', 'Received request ', 'Added request ', 'Finished request '];
const ACCESS = /"(?:GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH) \//;
/** Request-log lines (`--enable-log-requests`), recognized on the raw line, before the prefix lexer. */
const REQUEST_LOG = /(?:^|\] |\) )(?:Received request |Added request |Finished request |Aborted request |Generated response )/;
const MAX_PROCESSES = 64;
/** What every stats line holds: a message that is none but holds it may have one glued on. */
const STATS_TEXT = 'Avg prompt throughput: ';
/** A data-parallel engine core's process (`EngineCore_DP1 pid=7`): the engine of its iteration lines. */
const ENGINE_CORE = /^EngineCore_DP(\d+) /;

interface ServerStart {
  readonly builder: FieldMapBuilder;
  readonly line: number;
  banner: boolean;
  argsKnown: boolean;
  ready: boolean;
  busy: boolean;
}

export class VllmServerParser implements LineParser {
  readonly #file: RelPath;
  readonly #sink: DiagnosticSink;
  readonly #clock = new LogClock();
  readonly #timeline: TimelineBuilder;
  readonly #trackers = new Map<string, TracebackTracker>();
  readonly #starts: ServerStart[] = [];
  /** The `--cudagraph-metrics` table being read (one at a time: the stats logger prints them). */
  #graphTable: CudaGraphTable | null = null;
  #unrecognized = 0;
  #firstUnrecognized = 0;
  /** Stats logged before any startup fact: a log cut at its head, whose server was serving. */
  #busyBeforeStart = false;

  constructor(file: RelPath, sink: DiagnosticSink) {
    this.#file = file;
    this.#sink = sink;
    this.#timeline = new TimelineBuilder(file, sink);
  }

  line(text: string, lineNo: number): boolean {
    if (text.length === 0) return false;
    if (SKIP.some((s) => text.includes(s)) || ACCESS.test(text) || REQUEST_LOG.test(text)) return false; // access and request logs: the bulk of big logs
    const p = parsePrefix(text);
    const message = p.message;
    if (this.#tracker(p.process).line(message, lineNo, p.level ?? undefined)) return false;
    const c = message.charCodeAt(0);
    if (c === 42 || c === 45 || c === 124 || this.#graphTable !== null) {
      // '*' '-' '|': the CUDA graph table, or a line that ends the one being read
      const read = this.#graphTableLine(p, message, lineNo);
      if (read !== null) return read;
    }
    const stats = readStatsLine(message);
    // a record glued on by a lost newline leaves a value unreadable, or hides a stats line behind another message
    if (stats === null ? message.includes(STATS_TEXT) : stats.bad.length > 0) {
      const at = gluedRecordAt(message);
      if (at > 0) return this.#gluedRecords(text, p, at, lineNo);
    }
    if (stats !== null) {
      this.#statsLine(stats, p, lineNo);
      return true;
    }
    this.#time(p); // sees year roll-overs between stats lines, and the year of a line that prints the date
    if (this.#startup(message, lineNo)) return false;
    if (message.trim() === '') return false;
    if (this.#unrecognized++ === 0) this.#firstUnrecognized = lineNo;
    return false;
  }

  finish(): BenchRecord[] {
    this.#endGraphTable();
    const failures = mergeFailures([...this.#trackers.values()].map((t) => t.finish()));
    reportFailures(failures, this.#sink);
    if (this.#unrecognized > 0) {
      this.#sink.report('parse/unrecognized-lines', { file: this.#file, line: this.#firstUnrecognized, column: 1 }, this.#unrecognized);
    }
    const configs = this.#configs(failures);
    return [...configs, ...this.#timeline.finish(this.#clock.yearsBeforeFirstDate), ...failures].sort((a, b) => a.at.line - b.at.line);
  }

  #statsLine(stats: StatsPartial, p: LinePrefix, lineNo: number): void {
    if (stats.kind === 'iteration') {
      if (!Object.hasOwn(stats.fields, 'engine_index')) {
        const dp = ENGINE_CORE.exec(p.process);
        if (dp !== null) stats.fields.engine_index = Number(dp[1]);
      }
    } else this.#endGraphTable(); // its stats line printed, an engine's table is whole
    this.#addStats(stats, p, lineNo);
  }

  /**
   * A line holding two records, the second from `at` in the message (`… Running: 32 $INFO 07-03
   * 23:23:58 [metrics.py:536] Avg prompt throughput: …`): the first is read up to there, its values
   * cut short named with the second in one warning, and the second is read as a line of its own.
   */
  #gluedRecords(text: string, p: LinePrefix, at: number, lineNo: number): boolean {
    const message = p.message;
    const second = message.slice(at);
    const first = readStatsLine(message.slice(0, at));
    const column = text.length - message.length + at + 1;
    this.#sink.report('log/glued-lines', { file: this.#file, line: lineNo, column }, second, first?.bad.join(', ') ?? '');
    if (first !== null) this.#statsLine({ ...first, bad: [] }, p, lineNo);
    else this.#time(p);
    const secondRead = this.line(second, lineNo);
    return first !== null || secondRead;
  }

  #addStats(stats: StatsPartial, p: LinePrefix, lineNo: number): void {
    const time = this.#time(p);
    const extra: Record<string, FieldValue> = time?.inferred ? { time_year_inferred: true } : {};
    this.#timeline.add(stats, lineNo, time?.time ?? null, extra);
    this.#markBusy();
  }

  #markBusy(): void {
    const current = this.#starts.at(-1);
    if (current) current.busy = true;
    else this.#busyBeforeStart = true;
  }

  #time(p: LinePrefix): { time: string; inferred: boolean } | null {
    return p.stamp ? this.#clock.date(p.stamp, p.wrapper) : p.wrapper ? this.#clock.date(p.wrapper, p.wrapper) : null;
  }

  /**
   * A line of the CUDA graph table (cudagraph.ts): true for one the timeline took, false for one
   * read for nothing, null for any other line (a line of the table's process ends it first).
   */
  #graphTableLine(p: LinePrefix, message: string, lineNo: number): boolean | null {
    const part = tablePart(message);
    const open = this.#graphTable;
    if (part === null) {
      if (open === null || open.process !== p.process) return null;
      if (message.trim() === '' && !open.inRows) return false; // a blank line between the table's sections
      this.#endGraphTable();
      return message.trim() === '' ? false : null;
    }
    if (part.kind === 'start') {
      this.#endGraphTable();
      const time = this.#time(p);
      this.#graphTable = new CudaGraphTable(p.process, lineNo, time?.time ?? null, time?.inferred ? { time_year_inferred: true } : {});
      return false;
    }
    // rows of no table (its start cut off) are known and read for nothing
    if (part.kind === 'row' && open !== null) open.add(part.row);
    return false;
  }

  #endGraphTable(): void {
    const t = this.#graphTable;
    if (t === null) return;
    this.#graphTable = null;
    this.#timeline.add(t.partial(), t.line, t.time, t.extra);
    this.#markBusy();
  }

  #tracker(process: string): TracebackTracker {
    let t = this.#trackers.get(process);
    if (t === undefined) {
      if (this.#trackers.size >= MAX_PROCESSES) return this.#tracker('');
      t = new TracebackTracker(this.#file);
      this.#trackers.set(process, t);
    }
    return t;
  }

  /** True when the message was a startup fact; a second version banner starts a new server. */
  #startup(message: string, lineNo: number): boolean {
    let current = this.#starts.at(-1);
    const probe = new FieldMapBuilder();
    const fact = readStartupLine(message, probe, lineNo);
    if (fact === null) return false;
    // a glyph row of the 2026 logo: known, but no fact (its version row starts the server)
    if (fact === 'art') return true;
    if (current === undefined || (fact === 'banner' && (current.banner || current.ready || current.busy))) {
      current = { builder: new FieldMapBuilder(), line: lineNo, banner: false, argsKnown: false, ready: false, busy: false };
      current.builder.set('engine', 'vllm', lineNo);
      this.#starts.push(current);
    }
    if (fact === 'banner') current.banner = true;
    if (fact === 'ready') current.ready = true;
    if (fact === 'config' && /^(?:non-default args|args: Namespace|Initializing an? )/.test(message)) current.argsKnown = true;
    for (const [k, v] of Object.entries(probe.fields)) {
      const at = probe.lines[k] ?? lineNo;
      if (fact !== 'resolved') current.builder.set(k, v, at);
      else {
        setCell(current.builder.fields, k, v);
        setCell(current.builder.lines, k, at);
      }
    }
    return true;
  }

  /**
   * One ConfigRecord per server start; a crash with no start facts still gives one. A server that
   * logged stats served requests: one that crashed is a crash while serving (`ready`, as after a
   * ready line), not a failed start, even when the log was cut before its ready line.
   */
  #configs(failures: readonly FailureRecord[]): ConfigRecord[] {
    const starts = [...this.#starts];
    const first = failures[0];
    if (starts.length === 0 && first !== undefined) {
      const builder = new FieldMapBuilder();
      builder.set('engine', 'vllm', first.at.line);
      starts.push({ builder, line: first.at.line, banner: false, argsKnown: false, ready: false, busy: this.#busyBeforeStart });
    }
    return starts.map((s, i) => {
      const end = starts[i + 1]?.line ?? Number.POSITIVE_INFINITY;
      const crashed = failures.some((f) => f.at.line >= s.line && f.at.line < end) || (i === 0 && failures.some((f) => f.at.line < s.line));
      const status = s.ready || (crashed && s.busy) ? 'ready' : crashed ? 'failed-start' : 'unknown';
      if (status === 'failed-start') this.#sink.report('log/failed-start', { file: this.#file, line: s.line, column: 1 }, 'vllm');
      s.builder.set('server_status', status, s.line);
      const draft = s.builder.fields.draft_model;
      if (typeof draft === 'string') s.builder.set('spec_method', /ngram/i.test(draft) ? 'ngram' : 'draft_model', s.builder.lines.draft_model ?? s.line);
      if (s.argsKnown) s.builder.set('spec_method', 'none', s.line);
      return { kind: 'config', at: { file: this.#file, line: s.line, column: 1 }, origin: 'server-log', fields: s.builder.fields, lines: s.builder.lines };
    });
  }
}
