import { signature } from '../../src/parse/signature.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { scaleExact } from '../../src/parse/values.js';
import { keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { oneBatchParser } from './parser.js';
import { sectionRuns } from './runs.js';
import { oneBatchLexer, startsSection } from './tokens.js';
import { type OneBatchSection, oneBatchDocument } from './visitor.js';
import { lexedPieces, parseTokens } from '../../src/parse/pieces.js';
import { lookupTable } from '../../src/core/cells.js';

const TEXT = signature(['Prefill. latency: '], /^[^\S\n]*Prefill\. latency: [\d.na]+ s, throughput:/m);
const JSON_LINE = signature(['prefill_latency'], /^[^\S\n]*\{.*"prefill_latency"\s*:/m);

/** `python -m sglang.bench_one_batch` (formerly `bench_latency`): stdout and its JSONL results. */
export const grammar: Grammar = {
  id: 'sglang-bench-one-batch',
  title: 'SGLang single-batch latency benchmark',
  readsLineText: true,
  detect({ head }) {
    if (TEXT.test(head)) return { score: 0.8, reason: 'Prefill. latency / throughput lines' };
    if (JSON_LINE.test(head)) return { score: 0.8, reason: 'JSON lines with prefill_latency' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return [...textRuns(source, sink), ...jsonRuns(source, sink)].sort((a, b) => a.at.line - b.at.line);
  },
};

function textRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const sections: OneBatchSection[] = [];
  // lines in no section that are neither blank nor a JSON result line: how many, and the first
  let others = 0;
  let firstOther = 0;
  // in pieces (src/parse/pieces.ts) cut before a section's first line
  const cutsBefore = (i: number): boolean => startsSection(source.lines[i] as string);
  for (const piece of lexedPieces(source.lines, cutsBefore, (text) => oneBatchLexer().tokenize(text))) {
    const doc = oneBatchDocument(parseTokens(oneBatchParser(), piece.tokens, (p) => p.document()));
    for (const s of doc.sections) sections.push(s);
    for (const l of doc.loose) {
      if (l.type !== 'OtherLine' || l.text.trim() === '' || /^\s*\{/.test(l.text)) continue;
      if (others++ === 0) firstOther = l.line;
    }
  }
  const runs = sections.filter((s) => s.kind === 'benchmark').flatMap((s) => sectionRuns(s, source, sink));
  if (others > 0 && runs.length > 0) sink.report('parse/unrecognized-lines', { file: source.path, line: firstOther, column: 1 }, others);
  return runs;
}

/** Result lines appended by `--result-filename`: seconds in, ms out. */
const JSON_KEYS: Readonly<Record<string, { column: string; scale?: number }>> = lookupTable({
  run_name: { column: 'run_name' },
  batch_size: { column: 'batch_size' },
  input_len: { column: 'input_len' },
  output_len: { column: 'output_len' },
  prefill_latency: { column: 'prefill_latency_ms', scale: 1000 },
  prefill_throughput: { column: 'prefill_throughput' },
  median_decode_latency: { column: 'median_decode_latency_ms', scale: 1000 },
  median_decode_throughput: { column: 'median_decode_throughput' },
  total_latency: { column: 'total_latency_ms', scale: 1000 },
  overall_throughput: { column: 'total_token_throughput' },
});

function jsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const lines = source.lines.map((l) => (/^[^\S\n]*\{.*"prefill_latency"\s*:/.test(l) ? l : ''));
  if (!lines.some((l) => l !== '')) return [];
  const runs: RunRecord[] = [];
  for (const doc of parseJsonDocuments({ path: source.path, lines }, sink)) {
    const obj = doc.value;
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) continue;
    const at = keyLines.get(obj) ?? {};
    const b = new FieldMapBuilder();
    for (const [key, spec] of Object.entries(JSON_KEYS)) {
      const v = obj[key];
      if (v === undefined || v === null || typeof v === 'object') continue;
      const field = typeof v === 'number' ? scaleExact(v, spec.scale ?? 1) : toField(spec.column, v);
      b.set(spec.column, field, at[key] ?? doc.line);
    }
    b.set('client', 'sglang-bench-one-batch', doc.line);
    b.set('engine', 'sglang', doc.line);
    const label = typeof obj.run_name === 'string' && obj.run_name !== '' ? obj.run_name : null;
    runs.push({ kind: 'run', at: { file: source.path, line: doc.line, column: 1 }, label, complete: true, fields: b.fields, lines: b.lines });
  }
  return runs;
}
