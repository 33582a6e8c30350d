import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { findCommands } from './document.js';
import { TRIGGER } from './recognize.js';
import { signature } from '../../src/parse/signature.js';
import { headingLines, withSection } from './sections.js';

/** TRIGGER in a head, its literals looked for first (a log of other text costs one scan for each). */
const HEAD_TRIGGER = signature(['vllm', 'sglang', 'trtllm', 'benchmark_', 'bench_multiturn'], TRIGGER);

/**
 * Server launch commands (`vllm serve`, vLLM's api_server module, `sglang.launch_server`,
 * `trtllm-serve`) and benchmark commands (`vllm bench serve|latency|throughput`,
 * `benchmark_serving.py` and its siblings, `sglang.bench_serving`, `trtllm-bench
 * throughput|latency`) anywhere in a text file: shell
 * scripts, README fences, `$ `-prompted lines, logs that echo `Running: python ...`.
 */
export const grammar: Grammar = {
  id: 'launch-command',
  title: 'Launch and benchmark commands',
  readsLineText: true,
  detect({ path, head }) {
    if (!HEAD_TRIGGER.test(head)) return NOT_MINE;
    const lines = head.split('\n');
    lines.pop(); // the head may end inside a line
    const found = findCommands({ path, lines }, new DiagnosticCollector(), 1);
    return found.length > 0 ? { score: 0.4, reason: `${found[0]?.origin ?? 'command'} found` } : NOT_MINE;
  },
  parse(source, sink) {
    const headings = headingLines(source.lines);
    return findCommands(source, sink).map((r) => withSection(r, headings, source.lines.length));
  },
};
