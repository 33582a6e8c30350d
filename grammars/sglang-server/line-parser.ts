import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { type LineParser, wantsLine } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder, type FailureRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import type { RelPath } from '../../src/core/types.js';
import { addFlags } from '../../src/normalize/flags.js';
import { settleSglangSpec, withoutIdleSpecArgs } from '../../src/normalize/sglang-spec.js';
import { parseKeywordArgs } from '../../src/parse/python-repr.js';
import { reportFailures, TracebackTracker, UNCOMMON_EXCEPTION_ANCHORS } from '../../src/parse/traceback.js';
import { splitPrefix } from './prefix.js';
import { parseStatsLine } from './stats-parser.js';
import { isoTime, writeStatsEntry } from './timeline.js';

/** Substrings every line this grammar reads contains; the rest may be skipped unread. */
export const ANCHORS: readonly string[] = [
  'Prefill batch', 'Decode batch', 'new fill batch', '#running-req:', 'server_args=', 'max_total_num_tokens=',
  'KV Cache is allocated', 'fired up and ready', 'sglang', 'Traceback', 'Error', 'Exception', 'out of memory',
  'Interrupt', 'SystemExit', 'During handling', 'direct cause', 'Load weight end', 'Retract requests',
  'crashed with exit code', 'watchdog timeout', ...UNCOMMON_EXCEPTION_ANCHORS,
];
/** uvicorn access-log lines (`"POST /generate HTTP/1.1" 200 OK`): never read, even when they say `Error`. */
export const SKIP: readonly string[] = ['HTTP/1.'];
const PREFILTER = { anchors: ANCHORS, skip: SKIP };

const STATS = /^(?:(?:Prefill|Decode) batch\b|new fill batch\.|#running-req: )/;
const SERVER_ARGS = /server_args=ServerArgs\((.*)\)\s*$/;
const VERSION = /\bsglang(?:==|\s+version\s*[:=]?\s*v?|\s+v)(\d+\.\d+[\w.+-]*)/i;
const KV_TOKENS = /KV Cache is allocated\. #tokens: (\d+)/;
/** `Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=...`: the dtype actually loaded. */
const LOAD_WEIGHT = /^Load weight end\. .*\bdtype=torch\.(\w+)/;
const PREFILL_OOM = /^Prefill out of memory\b/;
/**
 * The launcher's subprocess watchdog (2026, `srt/utils/watchdog.py`, `SubprocessWatchdog`):
 * `Subprocess scheduler_0 (pid=4242) crashed with exit code -9. Triggering SIGQUIT for cleanup...`
 * (the second sentence only when it stops the server). A scheduler or detokenizer died without a
 * Python traceback of its own: killed, a C++ abort (NCCL timeout), a segfault.
 */
const SUBPROCESS_CRASH = /^Subprocess (\S+) \(pid=\d+\) crashed with exit code (-?\d+)/;
/**
 * The same file's hang watchdog: `Scheduler watchdog timeout (self.watchdog_timeout=300,
 * self.soft=False)`: no forward pass finished for that long. A hard one (`soft=False`) then stops
 * the server (SIGQUIT to its parent); a soft one only says so, and is not a failure here.
 */
const WATCHDOG_TIMEOUT = ' watchdog timeout (self.watchdog_timeout=';
/**
 * `KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 646,
 * #new_token_ratio: 0.0980 -> 0.3487` (scheduler `update_running_batch`; `#new_tokens_gained` since
 * 2025): decode requests whose KV cache was dropped, to be recomputed, as vLLM preempts them.
 */
const RETRACT = /^KV cache pool is full\. Retract requests\. #retracted_reqs: (\d+)/;
const TRACEBACK_AT = 'Traceback (most recent call last):';

/** Streaming reader of one SGLang server log: timeline rows, one config record, failures. */
export function sglangLineParser(file: RelPath, sink: DiagnosticSink): LineParser {
  const records: BenchRecord[] = [];
  const timeline = new TimelineSeriesBuilder();
  const own: FailureRecord[] = [];
  const tracker = new TracebackTracker(file);
  const config = new FieldMapBuilder();
  let configLine = 0;
  let year: string | null = null;
  let ready = false;
  /** The first stats line's: a server that printed one served, ready line or not (a log cut at its head). */
  let firstStatsLine = 0;
  let unrecognized = 0;
  let firstUnrecognized = 0;
  /**
   * Requests retracted since each rank's last stats line (by its `[… TPn DPm]` tags), and the line
   * of the first retraction: the next stats line's `preemptions`, printed there.
   */
  const retracted = new Map<string, { count: number; line: number }>();
  const note = (line: number): void => {
    if (configLine === 0 || line < configLine) configLine = line;
  };
  return {
    line(text, lineNo) {
      if (!wantsLine(PREFILTER, text)) return;
      const p = splitPrefix(text);
      if (p.year) year = p.year;
      const tb = p.message.indexOf(TRACEBACK_AT);
      const crashText = tb > 0 ? p.message.slice(tb) : p.message;
      if (tracker.line(crashText, lineNo, p.level)) return;
      if (STATS.test(p.message)) {
        const stats = parseStatsLine(p.message);
        if (stats.fields.size > 0) {
          if (firstStatsLine === 0) firstStatsLine = lineNo;
          timeline.begin(lineNo);
          writeStatsEntry(timeline, stats, lineNo, isoTime(p.year ?? year, p.date, p.clock), p.date === null ? p.clock : null, p.ranks);
          // a busy log has a stats line a batch and no retraction: nothing to look up then
          if (retracted.size > 0) {
            const rank = JSON.stringify(p.ranks);
            const preempted = retracted.get(rank);
            if (preempted !== undefined) timeline.set('preemptions', preempted.count, preempted.line);
            retracted.delete(rank);
          }
          return true;
        }
      }
      const args = SERVER_ARGS.exec(p.message);
      if (args?.[1] !== undefined) {
        const parsed = parseKeywordArgs(args[1]);
        // the whole ServerArgs, `speculative_algorithm=None` among them: no speculative decoding,
        // as a vLLM log's argument dump says (its runs are a baseline), and no speculative knob read
        addFlags(config, withoutIdleSpecArgs(parsed), lineNo);
        if (Object.hasOwn(parsed, 'speculative_algorithm') && parsed.speculative_algorithm === null) config.set('spec_method', 'none', lineNo);
        note(lineNo);
        return;
      }
      if (p.message.startsWith('max_total_num_tokens=')) {
        addFlags(config, parseKeywordArgs(p.message), lineNo);
        note(lineNo);
        return;
      }
      const kv = KV_TOKENS.exec(p.message);
      if (kv?.[1]) {
        config.set('kv_cache_tokens', Number(kv[1]), lineNo);
        note(lineNo);
        return;
      }
      if (p.message.includes('The server is fired up and ready to roll')) {
        ready = true;
        config.set('server_status', 'ready', lineNo);
        note(lineNo);
        return;
      }
      const loaded = LOAD_WEIGHT.exec(p.message);
      if (loaded?.[1]) {
        config.set('dtype', loaded[1], lineNo);
        note(lineNo);
        return;
      }
      const retract = RETRACT.exec(p.message);
      if (retract?.[1]) {
        const rank = JSON.stringify(p.ranks);
        const before = retracted.get(rank);
        retracted.set(rank, { count: (before?.count ?? 0) + Number(retract[1]), line: before?.line ?? lineNo });
        return true;
      }
      if (PREFILL_OOM.test(p.message)) {
        own.push({ kind: 'failure', at: { file, line: lineNo, column: 1 }, exception: 'PrefillOutOfMemory', message: p.message.trim() });
        return;
      }
      if (p.message.startsWith('Subprocess ')) {
        const crash = SUBPROCESS_CRASH.exec(p.message);
        if (crash) {
          own.push({ kind: 'failure', at: { file, line: lineNo, column: 1 }, exception: 'SubprocessCrashed', message: p.message.trim() });
          return;
        }
      }
      const hang = p.message.indexOf(WATCHDOG_TIMEOUT);
      if (hang > 0 && p.message.includes('self.soft=False', hang)) {
        own.push({ kind: 'failure', at: { file, line: lineNo, column: 1 }, exception: 'WatchdogTimeout', message: p.message.trim() });
        return;
      }
      const version = VERSION.exec(p.message);
      if (version?.[1]) {
        config.set('engine_version', version[1], lineNo);
        note(lineNo);
        return;
      }
      unrecognized++;
      if (firstUnrecognized === 0) firstUnrecognized = lineNo;
    },
    finish() {
      const failures = [...tracker.finish(), ...own].sort((a, b) => a.at.line - b.at.line);
      reportFailures(failures, sink);
      // a crash after a stats line came while serving: read as one after the ready line, not a failed start
      const firstFailure = failures[0];
      const servedFirst = firstFailure !== undefined && firstStatsLine > 0 && firstStatsLine < firstFailure.at.line;
      const failedStart = firstFailure !== undefined && !ready && !servedFirst;
      if (failedStart) sink.report('log/failed-start', firstFailure.at, 'sglang');
      if (configLine > 0) {
        config.set('engine', 'sglang', configLine);
        // same vocabulary as the other server logs: ready | failed-start | unknown
        config.set('server_status', servedFirst ? 'ready' : failedStart ? 'failed-start' : 'unknown', configLine);
        settleSglangSpec(config);
        records.push({ kind: 'config', at: { file, line: configLine, column: 1 }, origin: 'server-log', fields: config.fields, lines: config.lines });
      }
      if (unrecognized > 0) sink.report('parse/unrecognized-lines', { file, line: firstUnrecognized, column: 1 }, unrecognized);
      // the server stopped (or the log was cut) before the rank printed its next stats line
      if (retracted.size > 0) {
        const left = [...retracted.values()];
        const first = Math.min(...left.map((r) => r.line));
        sink.report('log/retractions-after-stats', { file, line: first, column: 1 }, left.reduce((n, r) => n + r.count, 0));
      }
      return [...records, ...timelineRecords(file, timeline, sink), ...failures].sort((a, b) => a.at.line - b.at.line);
    },
  };
}
