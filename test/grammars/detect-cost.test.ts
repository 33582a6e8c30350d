import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { asRelPath } from '../../src/core/types.js';

/**
 * Detection runs on the head of every file and on every window of a long log: a detector whose
 * regular expression backtracks over many lines (`^\s*X` with the m flag walks every following
 * blank line from every line start) takes the square of the text's length. 64 KiB of blank lines
 * took 3.4 s in one detector; 256 KiB would take about a minute. This guard gives the lot far
 * less than that, whatever each takes: it fails only on such a blow-up, not on a slow machine.
 */
const UNITS = ['\n', ' \n', '\t\n', '  ', '=', '= ', '=\n', '|\n', '| ', '┃\n', '{\n', 'a=1, ', 'Namespace(num_clients=1, max_active_conversations=2, '];
/** Each detector's literals, so those that look for them first go on to their regular expressions. */
const TRIGGERS = [
  'Batch Size', 'Parameter', 'Prefill. latency: ', '"prefill_latency"', '"last_gen_throughput"', '"successful_requests"', 'Serving Benchmark Result',
  'Offline Throughput Benchmark Result', 'NVIDIA GenAI-Perf', 'Statistic', 'pid=', 'vllm[', 'Total time: ', 'Throughput: ', 'vllm serve', 'trtllm-bench',
  '[TRT-LLM]', 'Decode batch', 'Successful requests:', 'Backend', 'PERFORMANCE OVERVIEW', 'Avg prompt throughput: ', '"time_to_first_token"', 'Run Summary Info', '| Benchmark',
].join('\n');

describe('detection', () => {
  it('costs about the length of the text, whatever repeats in it', { timeout: 30_000 }, () => {
    for (const unit of UNITS) {
      for (const tail of ['', `\n${TRIGGERS}`]) {
        const head = { path: asRelPath('x.log'), head: `${unit.repeat(Math.floor((256 * 1024) / unit.length))}${tail}` };
        for (const g of Object.values(GRAMMARS)) expect(() => g.detect(head)).not.toThrow();
      }
    }
  });
});
