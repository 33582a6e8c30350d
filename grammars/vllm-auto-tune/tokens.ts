import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';
import { resultGrammar } from '../_shared/result-lines/index.js';

/**
 * Line kinds of `benchmarks/auto_tune/auto_tune.sh`'s `result.txt` (README): the vLLM checkout's
 * commit, then one line per `max_num_seqs × max_num_batched_tokens` combination tried, then the
 * best parameters. The same lines are echoed to the script's stdout (a tee'd console log), among
 * its other output.
 */
const HASH = /^\s*(?:current_)?hash:\s*[0-9a-f]{7,40}\s*$/i;
/** `hash:<sha>`: the first line the script writes (`git rev-parse HEAD` of the vLLM checkout); its stdout says `current_hash: <sha>`. */
const HashLine = lineToken('HashLine', HASH);
/** `max_num_seqs: 128, max_num_batched_tokens: 2048, request_rate: …` or `… does not meet latency requirement 500`. */
const Combination = lineToken('Combination', /^\s*max_num_seqs:/);
/** `best_max_num_seqs: 256, best_num_batched_tokens: 2048, best_throughput: 8.43[, profile saved in: …]`. */
const Best = lineToken('Best', /^\s*best_max_num_seqs:/);

export const autoTuneGrammar = resultGrammar(
  { head: HashLine, stats: [Combination, Best], other: lineToken('OtherLine', /^/), newline: newlineToken() },
  (line) => HASH.test(line),
);
