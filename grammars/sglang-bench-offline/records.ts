import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { type PyValue, parsePyValue } from '../../src/parse/python-repr.js';
import { readNumber } from '../../src/parse/values.js';
import { keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { OFFLINE_KEYS } from './labels.js';

const THROUGHPUT = /^\s*Throughput: (\S+) tokens\/s\s*$/;
const DICT = /^\s*\{'/;
const JSON_LINE = /^\s*\{.*"successful_requests"\s*:.*"last_gen_throughput"\s*:/;

/** Runs from the Nov-2024 `Throughput:` + dict-repr pair and from appended JSON result lines. */
export function recordRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const runs: RunRecord[] = [];
  for (let i = 0; i < source.lines.length; i++) {
    const m = THROUGHPUT.exec(source.lines[i] ?? '');
    if (!m?.[1]) continue;
    const b = new FieldMapBuilder();
    const next = source.lines[i + 1] ?? '';
    if (DICT.test(next)) addObject(b, parsePyValue(next), {}, i + 2);
    const v = readNumber(m[1]);
    if (v.ok && v.value !== null) b.set('total_token_throughput', v.value, i + 1);
    else sink.report('block/bad-value', { file: source.path, line: i + 1, column: 1 }, 'Throughput', m[1]);
    runs.push(finish(b, source, i + 1));
  }
  const lines = source.lines.map((l) => (JSON_LINE.test(l) ? l : ''));
  if (!lines.some((l) => l !== '')) return runs;
  for (const doc of parseJsonDocuments({ path: source.path, lines }, sink)) {
    const b = new FieldMapBuilder();
    const obj = doc.value;
    addObject(b, obj, obj !== null && typeof obj === 'object' ? (keyLines.get(obj) ?? {}) : {}, doc.line);
    runs.push(finish(b, source, doc.line));
  }
  return runs;
}

function addObject(b: FieldMapBuilder, obj: PyValue, lines: Record<string, number>, line: number): void {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
  for (const [key, value] of Object.entries(obj)) {
    const spec = OFFLINE_KEYS[key];
    if (!spec || value === null || typeof value === 'object') continue;
    const field = toField(spec.column, value);
    if (field !== undefined) b.set(spec.column, field, lines[key] ?? line);
  }
}

function finish(b: FieldMapBuilder, source: TextSource, line: number): RunRecord {
  b.set('client', 'sglang-bench-offline', line);
  b.set('engine', 'sglang', line);
  const name = b.fields.run_name;
  const label = typeof name === 'string' && name !== '' ? name : null;
  return { kind: 'run', at: { file: source.path, line, column: 1 }, label, complete: true, fields: b.fields, lines: b.lines };
}
