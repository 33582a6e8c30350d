import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { summaryBlocks } from './blocks.js';
import { summaryRun } from './runs.js';
import { savedRuns } from './saved.js';
import { cleanLine } from './text.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';

const TITLE = 'Performance metrics summary:';
/** The summary's first value line, in every layout of bench_multiturn.py (bench_long_context.py prints no rate). */
const FIRST_VALUE = /^\s+Total requests: \d+ at \S+ requests per second$/;
/** What the script prints first: the request rates it will run. */
const STARTS = ['Auto-running with different request rates...', 'Running with specified request rate...'];

/**
 * A summary title followed by its `Total requests: N at R requests per second` line. Looked for
 * title by title with `indexOf` and one anchored test of the next line: linear whatever the head holds.
 */
function hasSummary(head: string): boolean {
  for (let at = head.indexOf(TITLE); at !== -1; ) {
    const start = head.indexOf('\n', at);
    if (start === -1) return false;
    const end = head.indexOf('\n', start + 1);
    const stop = end === -1 ? head.length : end;
    if (stop - start - 1 < 200 && FIRST_VALUE.test(cleanLine(head.slice(start + 1, stop)))) return true;
    // one look a line: the next title is searched for from the end of this one's line
    at = head.indexOf(TITLE, start);
  }
  return false;
}

/** The script's first line, alone on its line (a long run's summary may lie beyond the head). */
function hasStartLine(head: string): boolean {
  for (const start of STARTS) {
    for (let at = head.indexOf(start); at !== -1; ) {
      const lineStart = head.lastIndexOf('\n', at) + 1;
      const end = head.indexOf('\n', at);
      const stop = end === -1 ? head.length : end;
      if (stop - lineStart < 200 && cleanLine(head.slice(lineStart, stop)) === start) return true;
      if (end === -1) break;
      at = head.indexOf(start, end);
    }
  }
  return false;
}

/**
 * The `--log-file` JSONL as json.dumps writes it: a `summary` object opening with `total_requests`.
 * The literal guards start with a letter: `includes` of one starting with a quote stops at every
 * quote of a JSON head, and this runs on every JSON file's.
 */
function isSavedResult(head: string): boolean {
  if (!head.includes('average_ttft') || !head.includes('total_requests')) return false;
  return /^\s*\{/.test(head) && /"summary"\s*:\s*\{\s*"total_requests"\s*:/.test(head);
}

/**
 * SGLang's multi-turn HiCache benchmark, `benchmark/hicache/bench_multiturn.py`: its console (one
 * run per `Performance metrics summary:` block, a block per request rate of an auto-run) and the
 * `--log-file` JSONL it appends each run's summary to (saved.ts). See README.md.
 */
export const grammar: Grammar = readingPastInterleavedLines({
  id: 'sglang-bench-multiturn',
  title: 'SGLang multi-turn benchmark (benchmark/hicache/bench_multiturn.py) console and JSONL',
  readsLineText: true,
  detect({ head }) {
    if (head.includes(TITLE) && hasSummary(head)) return { score: 0.85, reason: '"Performance metrics summary:" with "Total requests: N at R requests per second"' };
    if (isSavedResult(head)) return { score: 0.8, reason: 'JSON lines with a "summary" object of total_requests / average_ttft' };
    if (STARTS.some((s) => head.includes(s)) && hasStartLine(head)) return { score: 0.5, reason: "bench_multiturn.py's request-rate start line" };
    return NOT_MINE;
  },
  parse(source, sink) {
    const first = source.lines.find((line) => line.trim() !== '');
    if (first !== undefined && /^\s*\{/.test(first)) return savedRuns(source, sink);
    const runs: RunRecord[] = [];
    for (const block of summaryBlocks(source.lines)) {
      const run = summaryRun(block, source, sink);
      if (run) runs.push(run);
    }
    return runs;
  },
});
