import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { linesNamed, type TypedLine } from '../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { jsonRuns } from './json.js';
import { throughputParser } from './parser.js';
import { throughputRuns } from './runs.js';
import { startsResult, throughputLexer } from './tokens.js';

const TEXT = signature(['requests/s, '], /^[^\S\n]*Throughput: \S+ requests\/s, \S+ (?:total )?tokens\/s/m);
/** The tokens a result is made of (tokens.ts). */
const RESULT_LINES: ReadonlySet<string> = new Set(['Throughput', 'TokenCount']);
const JSON_OBJECT = signature(['"requests_per_second"'], /"requests_per_second"\s*:/);

/** `vllm bench throughput` / `benchmark_throughput.py`: stdout and its `--output-json`. */
export const grammar: Grammar = {
  id: 'vllm-bench-throughput',
  title: 'vLLM offline throughput benchmark',
  detect({ head }) {
    if (TEXT.test(head)) return { score: 0.8, reason: 'Throughput: X requests/s, Y tokens/s line' };
    // an object, not the `.pytorch.json` list that holds the same keys deeper
    if (looksLikeJson(head) && /^\s*\{/.test(head) && JSON_OBJECT.test(head) && head.includes('"elapsed_time"')) return { score: 0.8, reason: 'JSON with requests_per_second and elapsed_time' };
    return NOT_MINE;
  },
  parse(source, sink) {
    if (looksLikeJson(source.lines.find((l) => l.trim() !== '') ?? '')) return jsonRuns(source, sink);
    return textRuns(source, sink);
  },
};

function textRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const lines: TypedLine[] = [];
  const cutsBefore = (i: number): boolean => startsResult(source.lines[i] as string);
  for (const piece of lexedPieces(source.lines, cutsBefore, (text) => throughputLexer().tokenize(text))) {
    for (const l of linesNamed(parseTokens(throughputParser(), piece.tokens, (p) => p.document()), RESULT_LINES)) lines.push(l);
  }
  return throughputRuns(lines, source, sink);
}
