import type { FormatId } from '../src/core/format-ids.js';
import type { Grammar } from '../src/core/grammar.js';
import { readingPastTracebacks } from './_shared/tracebacks.js';
// other load generators' exports (issue 3 item 6)
import { grammar as genaiPerfConsole } from './genai-perf-console/index.js';
import { grammar as genaiPerfCsv } from './genai-perf-csv/index.js';
import { grammar as genaiPerfJson } from './genai-perf-json/index.js';
import { grammar as guidellmConsole } from './guidellm-console/index.js';
import { grammar as guidellmJson } from './guidellm-json/index.js';
import { grammar as guidellmCsv } from './guidellm-csv/index.js';
import { grammar as inferencePerfJson } from './inference-perf-json/index.js';
import { grammar as inferencePerfConfig } from './inference-perf-config/index.js';
import { grammar as genaiBenchJson } from './genai-bench-json/index.js';
import { grammar as tgiBenchmark } from './tgi-benchmark/index.js';
import { grammar as llmperfJson } from './llmperf-json/index.js';
import { grammar as llmLoadTestJson } from './llm-load-test-json/index.js';
import { grammar as inferencexResultJson } from './inferencex-result-json/index.js';
import { grammar as specdecodeStudyJsonl } from './specdecode-study-jsonl/index.js';
import { grammar as specBenchJsonl } from './spec-bench-jsonl/index.js';
import { grammar as inferenceBenchmarkerJson } from './inference-benchmarker-json/index.js';
import { grammar as evalscopePerfJson } from './evalscope-perf-json/index.js';
import { grammar as evalscopePerfConsole } from './evalscope-perf-console/index.js';
import { grammar as llmdBenchmarkReport } from './llmd-benchmark-report/index.js';
import { grammar as vllmBenchResultJson } from './vllm-bench-result-json/index.js';
import { grammar as vllmBenchServe } from './vllm-bench-serve/index.js';
// vLLM's offline benchmarks (in-process engine)
import { grammar as vllmBenchLatency } from './vllm-bench-latency/index.js';
import { grammar as vllmBenchThroughput } from './vllm-bench-throughput/index.js';
import { grammar as vllmBenchSweep } from './vllm-bench-sweep/index.js';
import { grammar as vllmMultiTurnBench } from './vllm-multi-turn-bench/index.js';
import { grammar as vllmBenchStartup } from './vllm-bench-startup/index.js';
import { grammar as vllmAutoTune } from './vllm-auto-tune/index.js';
import { grammar as vllmPerfBenchmarksJson } from './vllm-perf-benchmarks-json/index.js';

// TensorRT-LLM artifacts (issue 3 item 2)
import { grammar as trtllmBench } from './trtllm-bench/index.js';
import { grammar as trtllmBenchReportJson } from './trtllm-bench-report-json/index.js';
import { grammar as trtllmBenchIterationLog } from './trtllm-bench-iteration-log/index.js';
import { grammar as trtllmBenchRequestsJson } from './trtllm-bench-requests-json/index.js';
import { grammar as trtllmServe } from './trtllm-serve/index.js';
import { grammar as trtllmServeMetricsJson } from './trtllm-serve-metrics-json/index.js';
// launch and benchmark commands (issue 3 item 4)
import { grammar as launchCommand } from './launch-command/index.js';
// SGLang artifacts (issue 3 item 1, server log item 3)
import { grammar as sglangBenchOffline } from './sglang-bench-offline/index.js';
import { grammar as sglangBenchSpeculativeJsonl } from './sglang-bench-speculative-jsonl/index.js';
import { grammar as sglangBenchMultiturn } from './sglang-bench-multiturn/index.js';
import { grammar as sglangBenchOneBatch } from './sglang-bench-one-batch/index.js';
import { grammar as sglangBenchOneBatchServer } from './sglang-bench-one-batch-server/index.js';
import { grammar as sglangBenchResultJsonl } from './sglang-bench-result-jsonl/index.js';
import { grammar as sglangBenchServing } from './sglang-bench-serving/index.js';
import { grammar as sglangServer } from './sglang-server/index.js';
// sweep runner manifests (issue 6)
import { grammar as benchlensManifest } from './benchlens-manifest/index.js';
// vLLM server logs (issue 3 item 3)
import { grammar as vllmServer } from './vllm-server/index.js';
/** Every grammar's module, keyed by format id. A missing id is a compile error. */
const GRAMMAR_MODULES = {
  'vllm-bench-serve': vllmBenchServe,
  'vllm-bench-result-json': vllmBenchResultJson,
  // vLLM's offline benchmarks (in-process engine)
  'vllm-bench-latency': vllmBenchLatency,
  'vllm-bench-throughput': vllmBenchThroughput,
  'vllm-bench-sweep': vllmBenchSweep,
  'vllm-multi-turn-bench': vllmMultiTurnBench,
  'vllm-bench-startup': vllmBenchStartup,
  'vllm-auto-tune': vllmAutoTune,
  'vllm-perf-benchmarks-json': vllmPerfBenchmarksJson,
  // other load generators' exports (issue 3 item 6)
  'genai-perf-console': genaiPerfConsole,
  'genai-perf-csv': genaiPerfCsv,
  'genai-perf-json': genaiPerfJson,
  'guidellm-console': guidellmConsole,
  'guidellm-json': guidellmJson,
  'guidellm-csv': guidellmCsv,
  'inference-perf-json': inferencePerfJson,
  'inference-perf-config': inferencePerfConfig,
  'genai-bench-json': genaiBenchJson,
  'tgi-benchmark': tgiBenchmark,
  'llmperf-json': llmperfJson,
  'llm-load-test-json': llmLoadTestJson,
  'inferencex-result-json': inferencexResultJson,
  'specdecode-study-jsonl': specdecodeStudyJsonl,
  'spec-bench-jsonl': specBenchJsonl,
  'inference-benchmarker-json': inferenceBenchmarkerJson,
  'evalscope-perf-json': evalscopePerfJson,
  'evalscope-perf-console': evalscopePerfConsole,
  'llmd-benchmark-report': llmdBenchmarkReport,
  // TensorRT-LLM artifacts (issue 3 item 2)
  'trtllm-bench': trtllmBench,
  'trtllm-bench-report-json': trtllmBenchReportJson,
  'trtllm-bench-iteration-log': trtllmBenchIterationLog,
  'trtllm-bench-requests-json': trtllmBenchRequestsJson,
  'trtllm-serve': trtllmServe,
  'trtllm-serve-metrics-json': trtllmServeMetricsJson,
  // launch and benchmark commands (issue 3 item 4)
  'launch-command': launchCommand,
  // SGLang artifacts (issue 3 item 1, server log item 3)
  'sglang-bench-serving': sglangBenchServing,
  'sglang-bench-result-jsonl': sglangBenchResultJsonl,
  'sglang-bench-one-batch': sglangBenchOneBatch,
  'sglang-bench-one-batch-server': sglangBenchOneBatchServer,
  'sglang-bench-offline': sglangBenchOffline,
  'sglang-bench-speculative-jsonl': sglangBenchSpeculativeJsonl,
  'sglang-bench-multiturn': sglangBenchMultiturn,
  'sglang-server': sglangServer,
  // sweep runner manifests (issue 6)
  'benchlens-manifest': benchlensManifest,
  // vLLM server logs (issue 3 item 3)
  'vllm-server': vllmServer,
} as const satisfies Record<FormatId, Grammar>;

/**
 * Every grammar, keyed by format id: those that read whole sources read them without the Python
 * tracebacks another process wrote into them (readingPastTracebacks); the line grammars of server
 * logs read tracebacks as crashes.
 */
export const GRAMMARS = Object.fromEntries(
  Object.entries(GRAMMAR_MODULES).map(([id, g]: [string, Grammar]) => [id, g.lines ? g : readingPastTracebacks(g)]),
) as { readonly [K in keyof typeof GRAMMAR_MODULES]: Grammar };
