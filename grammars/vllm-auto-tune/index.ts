import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { signature } from '../../src/parse/signature.js';
import { autoTuneRecords } from './result.js';

/** A combination's line or the best parameters' line, as the script writes them (not a word inside another line). */
const LINE = signature(
  ['max_num_seqs: ', 'best_max_num_seqs: '],
  /^[^\S\n]*(?:best_max_num_seqs: \d+, best_num_batched_tokens: \d|max_num_seqs: \d+, max_num_batched_tokens: \d+(?:, request_rate: | does not meet latency requirement))/m,
);

/** vLLM's `benchmarks/auto_tune/auto_tune.sh`: its `result.txt`, or its stdout with the same lines (README). */
export const grammar: Grammar = {
  id: 'vllm-auto-tune',
  title: 'vLLM auto_tune.sh result.txt',
  readsLineText: true,
  detect({ head }) {
    if (LINE.test(head)) return { score: 0.85, reason: 'auto_tune.sh combination or best-parameters line' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return autoTuneRecords(source, sink);
  },
};
