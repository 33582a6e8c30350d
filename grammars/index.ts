import type { FormatId } from '../src/core/format-ids.js';
import type { Grammar } from '../src/core/grammar.js';
import { grammar as vllmBenchResultJson } from './vllm-bench-result-json/index.js';
import { grammar as vllmBenchServe } from './vllm-bench-serve/index.js';

/** Every grammar, keyed by format id. A missing id is a compile error. */
export const GRAMMARS = {
  'vllm-bench-serve': vllmBenchServe,
  'vllm-bench-result-json': vllmBenchResultJson,
} as const satisfies Record<FormatId, Grammar>;
