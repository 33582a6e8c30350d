import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { isJsonObject, type JsonValue, keyLines, parseJsonDocuments } from '../_shared/json/index.js';

/** The failure records of a source: a configuration and a failure each (README). */
export function failureRecords(source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  return parseJsonDocuments(source, sink).flatMap((doc) => failure(doc.value, doc.line, source, sink));
}

function failure(obj: JsonValue, line: number, source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  const at = { file: source.path, line, column: 1 };
  if (!isJsonObject(obj) || typeof obj.error_type !== 'string') {
    sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
    return [];
  }
  const lines = keyLines.get(obj) ?? {};
  const b = new FieldMapBuilder();
  b.set('engine', 'vllm', line);
  for (const key of ['serve_overrides', 'bench_overrides']) {
    const overrides = obj[key];
    if (!isJsonObject(overrides)) continue;
    // the combination's name is in the file's path
    const { _benchmark_name: _name, ...flags } = overrides;
    addFlags(b, flags as Record<string, PyValue>, lines[key] ?? line);
  }
  const errorLine = lines.error ?? lines.error_type ?? line;
  return [
    { kind: 'config', at, origin: 'sweep', fields: b.fields, lines: b.lines },
    { kind: 'failure', at: { file: source.path, line: errorLine, column: 1 }, exception: obj.error_type, message: typeof obj.error === 'string' ? obj.error : '' },
  ];
}
