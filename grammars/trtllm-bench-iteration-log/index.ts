import { type Grammar, NOT_MINE, parseByLines } from '../../src/core/grammar.js';
import { iterationLogLineParser } from './line-parser.js';

/** Keys every iteration-statistics dict prints (C++ `IterationStats`, sorted), in Python's quoting. */
const STATS_KEYS = ["'iterLatencyMS': ", "'inflightBatchingStats': ", "'kvCacheStats': "];

/**
 * `trtllm-bench throughput|latency --iteration_log FILE`: one executor iteration-statistics dict
 * per line, printed by Python (single quotes, `None`), so neither JSON grammar reads it.
 */
export const grammar: Grammar = {
  id: 'trtllm-bench-iteration-log',
  title: 'TensorRT-LLM trtllm-bench --iteration_log',
  detect({ head }) {
    const start = head.search(/\S/);
    if (start < 0 || !head.startsWith("{'", start)) return NOT_MINE;
    if (!STATS_KEYS.some((key) => head.includes(key))) return NOT_MINE;
    return { score: 0.85, reason: 'Python dicts of iteration statistics (iterLatencyMS / kvCacheStats keys)' };
  },
  parse(source, sink) {
    return parseByLines(iterationLogLineParser(source.path, sink), source);
  },
  lines: iterationLogLineParser,
};
