import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { isJsonObject, keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { JSON_KEYS, type SentinelTally, setBatchSize, setTool, setValue } from './columns.js';

/**
 * A line the tool appended to `--result-filename`: an object with `batch_size` (or cut short after
 * `run_name`), and none of `bench_one_batch`'s keys (its own grammar reads those lines).
 */
export const RESULT_LINE = /^[^\S\n]*\{.*"(?:run_name|batch_size)"\s*:/;
const ONE_BATCH_LINE = /"prefill_latency"\s*:/;

/**
 * The JSON lines of a source, one run each. Other lines are blanked first, so a log that also
 * holds the printed cases reads its JSON without a syntax warning per text line. A key not in
 * JSON_KEYS keeps its own name (the newest `num_early_stopped`, `steady_state_*`, a fork's
 * additions); nested values are read past, `null` is missing.
 */
export function jsonRuns(source: TextSource, sink: DiagnosticSink, sentinels: SentinelTally): RunRecord[] {
  const lines = source.lines.map((l) => (RESULT_LINE.test(l) && !ONE_BATCH_LINE.test(l) ? l : ''));
  if (!lines.some((l) => l !== '')) return [];
  const runs: RunRecord[] = [];
  for (const doc of parseJsonDocuments({ path: source.path, lines }, sink)) {
    const obj = doc.value;
    if (!isJsonObject(obj)) continue;
    const at = keyLines.get(obj) ?? {};
    if (typeof obj.batch_size !== 'number') {
      sink.report('json/not-a-result', { file: source.path, line: doc.line, column: 1 }, Object.keys(obj).slice(0, 8).join(', '));
      continue;
    }
    const b = new FieldMapBuilder();
    setBatchSize(b, obj.batch_size, at.batch_size ?? doc.line);
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'batch_size' || value === null || typeof value === 'object') continue;
      const line = at[key] ?? doc.line;
      const spec = JSON_KEYS[key];
      if (spec && typeof value === 'number') {
        if (!setValue(b, spec, value, line)) sentinels.add(line);
        continue;
      }
      const column = spec?.column ?? key;
      b.set(column, toField(column, value), line);
    }
    setTool(b, 'sglang', doc.line);
    const label = typeof obj.run_name === 'string' && obj.run_name !== '' ? obj.run_name : null;
    runs.push({ kind: 'run', at: { file: source.path, line: doc.line, column: 1 }, label, complete: true, fields: b.fields, lines: b.lines });
  }
  return runs;
}
