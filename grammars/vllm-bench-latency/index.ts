import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { linesNamed, type TypedLine } from '../../src/parse/chevrotain.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { jsonRuns } from './json.js';
import { latencyParser } from './parser.js';
import { latencyRuns } from './runs.js';
import { latencyLexer, startsResult } from './tokens.js';

const TEXT = signature(['Avg latency: '], /^[^\S\n]*Avg latency: \S+ seconds?\s*$/m);
/** The tokens a result is made of (tokens.ts). */
const RESULT_LINES: ReadonlySet<string> = new Set(['AvgLatency', 'StdLatency', 'PercentileLatency']);
const JSON_OBJECT = signature(['"avg_latency"'], /"avg_latency"\s*:/);

/** `vllm bench latency` / `benchmark_latency.py`: stdout and its `--output-json`. */
export const grammar: Grammar = {
  id: 'vllm-bench-latency',
  title: 'vLLM batch latency benchmark',
  detect({ head }) {
    if (TEXT.test(head)) return { score: 0.8, reason: 'Avg latency: X seconds line' };
    // an object, not the `.pytorch.json` list that holds the same keys deeper
    if (looksLikeJson(head) && /^\s*\{/.test(head) && JSON_OBJECT.test(head)) return { score: 0.8, reason: 'JSON with avg_latency' };
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
  for (const piece of lexedPieces(source.lines, cutsBefore, (text) => latencyLexer().tokenize(text))) {
    for (const l of linesNamed(parseTokens(latencyParser(), piece.tokens, (p) => p.document()), RESULT_LINES)) lines.push(l);
  }
  return latencyRuns(lines, source, sink);
}
