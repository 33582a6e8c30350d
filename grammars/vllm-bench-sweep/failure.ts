import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { acceptedObjects, isJsonObject } from '../_shared/json/index.js';

/** The failure records of a source: a configuration and a failure each (README). */
export function failureRecords(source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  return acceptedObjects(source, sink, (o) => typeof o.error_type === 'string').flatMap(({ obj, lines, at }): BenchRecord[] => {
    // `--warmup-num-prompts` with `--continue-on-error`: a failed warm-up (`warmup.failure.json`,
    // run_number -1, its own prompt count in bench_overrides) is no measured run's failure; each
    // measured run after it leaves its result or its own failure record
    if (obj.run_number === -1) {
      sink.report('json/warmup-run', at);
      return [];
    }
    const b = new FieldMapBuilder();
    b.set('engine', 'vllm', at.line);
    for (const key of ['serve_overrides', 'bench_overrides']) {
      const overrides = obj[key];
      if (!isJsonObject(overrides)) continue;
      // the combination's name is in the file's path
      const { _benchmark_name: _name, ...flags } = overrides;
      addFlags(b, flags as Record<string, PyValue>, lines[key] ?? at.line);
    }
    const errorLine = lines.error ?? lines.error_type ?? at.line;
    return [
      { kind: 'config', at, origin: 'sweep', fields: b.fields, lines: b.lines },
      { kind: 'failure', at: { ...at, line: errorLine }, exception: String(obj.error_type), message: typeof obj.error === 'string' ? obj.error : '' },
    ];
  });
}
