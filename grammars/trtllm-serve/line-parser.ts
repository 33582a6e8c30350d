import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { type LineParser, wantsLine } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder, type FailureRecord, timelineRecords } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import type { RelPath } from '../../src/core/types.js';
import { reportFailures, TracebackTracker, UNCOMMON_EXCEPTION_ANCHORS } from '../../src/parse/traceback.js';
import { parseIterLine } from './iter-parser.js';
import { isErrorLevel, splitPrefix, trackerLevel } from './prefix.js';
import { writeIterEntry } from './timeline.js';

/** Substrings every line this grammar reads contains; the rest may be skipped unread. */
export const ANCHORS: readonly string[] = [
  '[TRT-LLM]', '[TensorRT-LLM]', 'iter = ', 'Uvicorn running', 'Application startup complete', 'Traceback', 'Error',
  'Exception', 'out of memory', 'Interrupt', 'SystemExit', 'During handling', 'direct cause', ...UNCOMMON_EXCEPTION_ANCHORS,
];
/** uvicorn access-log lines (`"POST /generate HTTP/1.1" 200 OK`): never read, even when they say `Error`. */
export const SKIP: readonly string[] = ['HTTP/1.'];
const PREFILTER = { anchors: ANCHORS, skip: SKIP };

const ITER = /^iter = \d+,/;
/** An iteration line behind a prefix or tag this grammar does not know: counted, not read by guess. */
const ITER_ELSEWHERE = /\biter = \d+, /;
const VERSION = /TensorRT-LLM version: ?v?(\d+\.\d+[\w.+-]*)/;
const BLOCKS = /^Number of blocks in KV cache primary pool: (\d+)/;
const TOKENS_PER_BLOCK = /^Number of tokens per block: (\d+)/;
/** The PyTorch backend's one line for both: `Max KV cache blocks per sequence: 65 [window size=2051], tokens per block=32, primary blocks=116617, …`. */
const BLOCKS_LINE = /^Max KV cache blocks per sequence: .*?\btokens per block=(\d+), primary blocks=(\d+)/;
const KV_ALLOC = /^\[MemUsageChange\] Allocated ([\d.]+) GiB for max tokens in paged KV cache \((\d+)\)/;
const READY = /^(?:Application startup complete|Uvicorn running on )/;
const EXCEPTION = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)): ?(.*)$/;

/** Streaming reader of one trtllm-serve / TensorRT-LLM runtime log: timeline rows, one config record, failures. */
export function trtllmServeLineParser(file: RelPath, sink: DiagnosticSink): LineParser {
  const records: BenchRecord[] = [];
  const timeline = new TimelineSeriesBuilder();
  const own: FailureRecord[] = [];
  const tracker = new TracebackTracker(file);
  const config = new FieldMapBuilder();
  let configLine = 0;
  let ready = false;
  let unrecognized = 0;
  let firstUnrecognized = 0;
  const fact = (column: string, value: string | number | boolean, line: number): void => {
    config.set(column, value, line);
    if (configLine === 0) configLine = line;
  };
  return {
    line(text, lineNo) {
      if (!wantsLine(PREFILTER, text)) return;
      const p = splitPrefix(text);
      const at = { file, line: lineNo, column: 1 };
      if (ITER.test(p.message)) {
        timeline.begin(lineNo);
        const bad = writeIterEntry(timeline, parseIterLine(p.message), lineNo, p);
        if (bad.length > 0) sink.report('log/bad-stats-value', at, bad.join(', '));
        return true;
      }
      if (isErrorLevel(p) && p.source !== 'uvicorn') {
        const exc = EXCEPTION.exec(p.message.trim());
        const fallback = /CUDA out of memory|OutOfMemory/i.test(p.message) ? 'OutOfMemoryError' : 'TRTLLMError';
        own.push({ kind: 'failure', at, exception: exc?.[1] ?? fallback, message: (exc ? (exc[2] ?? '') : p.message).trim() });
        return;
      }
      if (tracker.line(p.message, lineNo, trackerLevel(p))) return;
      const version = VERSION.exec(p.message);
      if (version?.[1]) return fact('engine_version', version[1], lineNo);
      const blocks = BLOCKS.exec(p.message);
      if (blocks?.[1]) return fact('kv_cache_blocks', Number(blocks[1]), lineNo);
      const perBlock = TOKENS_PER_BLOCK.exec(p.message);
      if (perBlock?.[1]) return fact('kv_cache_tokens_per_block', Number(perBlock[1]), lineNo);
      const both = BLOCKS_LINE.exec(p.message);
      if (both?.[1] && both[2]) {
        fact('kv_cache_tokens_per_block', Number(both[1]), lineNo);
        return fact('kv_cache_blocks', Number(both[2]), lineNo);
      }
      const alloc = KV_ALLOC.exec(p.message);
      if (alloc?.[1] && alloc[2]) {
        fact('kv_cache_gib', Number(alloc[1]), lineNo);
        return fact('kv_cache_tokens', Number(alloc[2]), lineNo);
      }
      if (READY.test(p.message)) {
        ready = true;
        return fact('server_status', 'ready', lineNo);
      }
      // other logger lines: known shape, nothing to keep
      if ((p.source === 'python' || p.source === 'cpp') && !ITER_ELSEWHERE.test(p.message)) return;
      unrecognized++;
      if (firstUnrecognized === 0) firstUnrecognized = lineNo;
    },
    finish() {
      const failures = [...tracker.finish(), ...own].sort((a, b) => a.at.line - b.at.line);
      reportFailures(failures, sink);
      if (failures.length > 0 && !ready) sink.report('log/failed-start', failures[0]?.at ?? { file, line: 1, column: 1 }, 'trtllm');
      if (configLine > 0) {
        config.set('engine', 'trtllm', configLine);
        // same vocabulary as the other server logs: ready | failed-start | unknown
        config.set('server_status', failures.length > 0 ? 'failed-start' : 'unknown', configLine);
        records.push({ kind: 'config', at: { file, line: configLine, column: 1 }, origin: 'server-log', fields: config.fields, lines: config.lines });
      }
      if (unrecognized > 0) sink.report('parse/unrecognized-lines', { file, line: firstUnrecognized, column: 1 }, unrecognized);
      return [...records, ...timelineRecords(file, timeline, sink), ...failures].sort((a, b) => a.at.line - b.at.line);
    },
  };
}
