import { NOT_MINE, parseByLines, type Grammar } from '../../src/core/grammar.js';
import { UNCOMMON_EXCEPTION_ANCHORS } from '../../src/parse/traceback.js';
import { SKIP, VllmServerParser } from './server.js';

/** Lines only vLLM's server prints; any line of its loggers under a Python logging format of the user's own (`… - vllm.engine.metrics - INFO - …`). */
const MARKERS =
  /vLLM (?:API )?server version|non-default args: \{|LLM engine (?:\(v[^)]*\) )?with config:|(?:^|[\]:] )(?:Engine \d+: )?Avg prompt throughput: |SpecDecoding metrics: |Speculative metrics: Draft acceptance rate|SpecDecodeWorker stage times|^(?:\S.*)?\((?:APIServer|EngineCore|VllmWorker)[\w ]*pid=\d+\)|vllm\[\d+\]: |^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? - vllm\.[\w.]+ - [A-Z]+ - /m;
/**
 * A literal that every MARKERS alternative contains: a cheap `includes` first, so the line-anchored
 * regex runs only on heads that can match (detection runs on every file of a folder).
 */
const QUICK_MARKERS = ['vLLM API server version', 'vLLM server version', 'non-default args: {', 'with config:', 'Avg prompt throughput: ', 'SpecDecoding metrics: ', 'Speculative metrics: Draft acceptance rate', 'SpecDecodeWorker stage times', 'pid=', 'vllm[', ' - vllm.'];
/** vLLM's own logger prefix, old and new file part. */
const PREFIX = /^(?:.{0,80}? )?(?:INFO|WARNING|ERROR|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d (?:\[[\w./]+:\d+\]|[\w.]+\.py:\d+\])/m;
/** Benchmark client output (its own grammar reads it) and the server facts that still make it a server log. */
const BENCH_BLOCK = /(?<!=)=+ ?(?:Serving|Embedding\/Pooling|Multi-Turn) Benchmark Result ?=+/;
const STARTUP = /vLLM (?:API )?server version|non-default args: \{|LLM engine (?:\(v[^)]*\) )?with config:/;
const PASTED_STATS = /(?:Engine \d+: )?Avg prompt throughput: |SpecDecoding metrics: |Speculative metrics: Draft acceptance rate/;
const SERVER_HINT = /Started server process|Traceback \(most recent call last\)|GPU KV cache size|# GPU blocks|Starting vLLM/;

/** vLLM server logs (`vllm serve`, the OpenAI API server), V0 and V1 engines, 2023 → 2026. */
export const grammar: Grammar = {
  id: 'vllm-server',
  title: 'vLLM server log',
  detect({ head }) {
    if (BENCH_BLOCK.test(head) && !STARTUP.test(head)) {
      // Client output or a write-up: only the server stats lines pasted or tee'd into it are ours,
      // so they reach the timeline and can attach to the run next to them.
      return PASTED_STATS.test(head) ? { score: 0.3, reason: 'server stats lines next to benchmark output' } : NOT_MINE;
    }
    if (QUICK_MARKERS.some((m) => head.includes(m)) && MARKERS.test(head)) return { score: 0.7, reason: 'vLLM server startup, stats or process-prefixed lines' };
    if (SERVER_HINT.test(head) && PREFIX.test(head)) return { score: 0.5, reason: 'vLLM log prefix with server lines' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseByLines(new VllmServerParser(source.path, sink), source);
  },
  lines(path, sink) {
    return new VllmServerParser(path, sink);
  },
  anchors: [
    // the 2026 logo's version and model rows (`… █  version 0.23.1`, `… █  model   org/m`) hold no other anchor
    // `# <device> blocks: N, # CPU blocks: M` names the device as its platform does (`GPU`, `cuda`, `cpu`, …)
    'vLLM', '  version ', '  model ', 'args', 'with config', 'KV cache', 'Auto-fit', 'CPU blocks', 'num_gpu_blocks', 'concurrency', 'max model len',
    'Chunked prefill', 'throughput', 'Speculative', 'SpecDecod', 'Prefix cache', 'Transfer metrics', 'MFU: ', 'Iteration(', 'startup complete',
    // the `--cudagraph-metrics` table: its first row, and each data row by its runtime mode (cudagraph.ts)
    'CUDAGraph', 'FULL ', 'PIECEWISE ', 'NONE ', 'Uvicorn running', 'Available routes', 'Route: /',
    'Traceback', 'rror', 'xception', '[type=', 'Interrupt', 'SystemExit', 'out of memory', 'During handling', 'File "',
    ...UNCOMMON_EXCEPTION_ANCHORS,
  ],
  skip: SKIP,
  // `docker logs -t`'s time gives the year its `INFO 12-31 23:59:40` lines leave out, journald's
  // prefix the process (prefix.ts)
  readsTimestampPrefix: true,
};
