import { signature } from '../../src/parse/signature.js';
import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { resultLinesOf } from '../_shared/result-lines/index.js';
import { jsonRuns } from './json.js';
import { throughputRuns } from './runs.js';
import { throughputGrammar } from './tokens.js';

const TEXT = signature(['requests/s, '], /^[^\S\n]*Throughput: \S+ requests\/s, \S+ (?:total )?tokens\/s/m);
const JSON_OBJECT = signature(['"requests_per_second"'], /"requests_per_second"\s*:/);

/** `vllm bench throughput` / `benchmark_throughput.py`: stdout and its `--output-json`. */
export const grammar: Grammar = {
  id: 'vllm-bench-throughput',
  title: 'vLLM offline throughput benchmark',
  readsLineText: true,
  detect({ head }) {
    if (TEXT.test(head)) return { score: 0.8, reason: 'Throughput: X requests/s, Y tokens/s line' };
    // an object, not the `.pytorch.json` list that holds the same keys deeper
    if (looksLikeJson(head) && /^\s*\{/.test(head) && JSON_OBJECT.test(head) && head.includes('"elapsed_time"')) return { score: 0.8, reason: 'JSON with requests_per_second and elapsed_time' };
    return NOT_MINE;
  },
  parse(source, sink) {
    if (looksLikeJson(source.lines.find((l) => l.trim() !== '') ?? '')) return jsonRuns(source, sink);
    return throughputRuns(resultLinesOf(source, throughputGrammar), source, sink);
  },
};

