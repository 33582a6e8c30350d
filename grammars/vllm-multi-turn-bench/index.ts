import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { signature } from '../../src/parse/signature.js';
import { multiTurnItems } from './blocks.js';
import { InvocationConfig } from './config.js';
import { summaryRun } from './runs.js';
import { isStatsJson, opensArray, statsJsonRuns } from './stats-json.js';
import { readingPastInterleavedLines } from '../_shared/client-output.js';
import { readingAcrossGaps } from '../_shared/table-gaps.js';
import { summaryGaps } from './gaps.js';

/** A summary title with its first value line (the logger may prefix nothing here: it is printed). */
// up to three lines between the title and its first value (another process's, blank or not: summaryGaps)
const SUMMARY = signature(['Statistics summary'], /^Statistics summary(?: \(assuming \d+(?:\.\d+)?% warmup samples\))?:[ \t]*\r?\n(?:[^\n]{0,400}\n){0,3}runtime_sec = [\d.]+/m);
/** The script's own flags in the `Namespace(...)` it logs first. */
const ARG_NAMES = ['num_clients=', 'max_active_conversations=', 'warmup_percentages='];

/**
 * The start of a long run's log, its summary beyond the head: a line of `logger.info(args)` with
 * the script's own flags. Looked for line by line with `indexOf` (linear whatever the head holds:
 * one expression of `[^\n]*` runs took minutes on a 64 KiB line of repeated flags).
 */
function hasScriptArgs(head: string): boolean {
  if (!head.includes(ARG_NAMES[1] as string)) return false;
  for (let at = head.indexOf('Namespace('); at !== -1; ) {
    const end = head.indexOf('\n', at);
    const line = head.slice(at, end === -1 ? head.length : end);
    if (ARG_NAMES.every((name) => line.includes(name))) return true;
    if (end === -1) return false;
    at = head.indexOf('Namespace(', end);
  }
  return false;
}

/**
 * vLLM's multi-turn conversation benchmark, `benchmarks/multi_turn/benchmark_serving_multi_turn.py`:
 * its console (tee'd logs), one run per `Statistics summary` block (pandas `describe()` of the
 * per-request stats), with the configuration its invocation printed and logged above it; and its
 * `--stats-json-output` file, the same statistics recomputed from the per-request array.
 */
const multiTurn: Grammar = {
  id: 'vllm-multi-turn-bench',
  title: 'vLLM multi-turn benchmark (benchmark_serving_multi_turn.py) console and --stats-json-output',
  readsLineText: true,
  detect({ head }) {
    if (SUMMARY.test(head)) return { score: 0.85, reason: 'multi-turn "Statistics summary:" with runtime_sec' };
    if (isStatsJson(head)) return { score: 0.85, reason: 'JSON array of multi-turn RequestStats (output_num_first_chunk_tokens, approx_cached_percent)' };
    if (hasScriptArgs(head)) return { score: 0.5, reason: 'multi-turn benchmark arguments (num_clients, max_active_conversations)' };
    return NOT_MINE;
  },
  parse(source, sink) {
    // `--stats-json-output`: the per-request array, one run recomputed from it (stats-json.ts)
    if (opensArray(source.lines)) return statsJsonRuns(source, sink);
    const runs: RunRecord[] = [];
    let config = new InvocationConfig();
    let summarySeen = false;
    for (const item of multiTurnItems(source.lines)) {
      switch (item.kind) {
        case 'invocation':
          // `logger.info(args)` is an invocation's first line; `Input parameters:` and the printed
          // `Parameters:` block start a new one only once this one has printed its summaries
          if (item.namespace !== null || summarySeen) {
            config = new InvocationConfig();
            summarySeen = false;
          }
          if (item.namespace) config.addNamespace(item.namespace, item.line);
          break;
        case 'param':
          config.addParam(item);
          break;
        case 'server-version':
        case 'served-model':
          config.addServerInfo(item);
          break;
        case 'summary': {
          summarySeen = true;
          const run = summaryRun(item, config, source, sink);
          if (run) runs.push(run);
          break;
        }
      }
    }
    return runs;
  },
};

/** Read past other processes' lines (their own rule's) and lines of text written into a summary (summaryGaps). */
export const grammar: Grammar = readingPastInterleavedLines(readingAcrossGaps(multiTurn, summaryGaps));
