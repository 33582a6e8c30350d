import { signature } from '../../src/parse/signature.js';
import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { resultLinesOf } from '../_shared/result-lines/index.js';
import { jsonRuns } from './json.js';
import { latencyRuns } from './runs.js';
import { latencyGrammar } from './tokens.js';

const TEXT = signature(['Avg latency: '], /^[^\S\n]*Avg latency: \S+ seconds?\s*$/m);
const JSON_OBJECT = signature(['"avg_latency"'], /"avg_latency"\s*:/);

/** `vllm bench latency` / `benchmark_latency.py`: stdout and its `--output-json`. */
export const grammar: Grammar = {
  id: 'vllm-bench-latency',
  title: 'vLLM batch latency benchmark',
  readsLineText: true,
  detect({ head }) {
    if (TEXT.test(head)) return { score: 0.8, reason: 'Avg latency: X seconds line' };
    // an object, not the `.pytorch.json` list that holds the same keys deeper
    if (looksLikeJson(head) && /^\s*\{/.test(head) && JSON_OBJECT.test(head)) return { score: 0.8, reason: 'JSON with avg_latency' };
    return NOT_MINE;
  },
  parse(source, sink) {
    if (looksLikeJson(source.lines.find((l) => l.trim() !== '') ?? '')) return jsonRuns(source, sink);
    return latencyRuns(resultLinesOf(source, latencyGrammar), source, sink);
  },
};

