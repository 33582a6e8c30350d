/** Every format benchlens can read. Folder name under grammars/ = id = registry key. */
export const FORMAT_IDS = ['vllm-bench-serve', 'vllm-bench-result-json',
  // vLLM's offline benchmarks (in-process engine)
  'vllm-bench-latency',
  'vllm-bench-throughput',
  // vllm bench sweep's failure records
  'vllm-bench-sweep',
  // vLLM's multi-turn conversation benchmark (benchmarks/multi_turn)
  'vllm-multi-turn-bench',
  // vllm bench startup / vllm bench sweep startup: server start-up times
  'vllm-bench-startup',
  'vllm-auto-tune',
  // vLLM's performance benchmarks' summary (.buildkite/performance-benchmarks, benchmark_results.json)
  'vllm-perf-benchmarks-json',
  // other load generators' exports (issue 3 item 6)
  'genai-perf-console',
  'genai-perf-csv',
  'genai-perf-json',
  'guidellm-console',
  'guidellm-json',
  'guidellm-csv',
  'inference-perf-json',
  'inference-perf-config',
  'genai-bench-json',
  'tgi-benchmark',
  'llmperf-json',
  'llm-load-test-json',
  'inferencex-result-json',
  'specdecode-study-jsonl',
  'spec-bench-jsonl',
  'inference-benchmarker-json',
  'evalscope-perf-json',
  'evalscope-perf-console',
  'llmd-benchmark-report',
  // TensorRT-LLM artifacts (issue 3 item 2)
  'trtllm-bench',
  'trtllm-bench-report-json',
  'trtllm-bench-iteration-log',
  'trtllm-bench-requests-json',
  'trtllm-serve',
  'trtllm-serve-metrics-json',
  // launch and benchmark commands (issue 3 item 4)
  'launch-command',
  // SGLang artifacts (issue 3 item 1, server log item 3)
  'sglang-bench-serving',
  'sglang-bench-result-jsonl',
  'sglang-bench-one-batch',
  'sglang-bench-one-batch-server',
  'sglang-bench-offline',
  'sglang-bench-speculative-jsonl',
  // SGLang's multi-turn HiCache benchmark (benchmark/hicache/bench_multiturn.py): console and --log-file JSONL
  'sglang-bench-multiturn',
  'sglang-server',
  // sweep runner manifests (issue 6)
  'benchlens-manifest',
  // vLLM server logs (issue 3 item 3)
  'vllm-server',
] as const;

export type FormatId = (typeof FORMAT_IDS)[number];

export function isFormatId(value: string): value is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(value);
}
