import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { RunRecord } from '../../src/core/records.js';
import { firstKeyLine, isJsonObject, type JsonValue, keyLines, parseJsonDocuments } from '../_shared/json/index.js';
import { isStartupResult, startupRun } from './result.js';

/**
 * The JSON files: `--output-json` (one object), a sweep's `run=N.json` (the same object with
 * `run_number` and the overrides) and its combination's `summary.json` (a list of those). Any
 * other document, or element of the list, is a `json/not-a-result` info.
 */
export function jsonRuns(source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const label = sweepCombination(source.path);
  return parseJsonDocuments(source, sink).flatMap((doc) => {
    const elements: { value: JsonValue; line: number }[] = Array.isArray(doc.value)
      ? doc.value.map((value) => ({ value, line: (isJsonObject(value) ? firstKeyLine(value) : undefined) ?? doc.line }))
      : [{ value: doc.value, line: doc.line }];
    return elements.flatMap(({ value, line }) => {
      const at = { file: source.path, line, column: 1 };
      if (isJsonObject(value) && isStartupResult(value)) return [startupRun(value, keyLines.get(value) ?? {}, at, label, sink)];
      sink.report('json/not-a-result', at, isJsonObject(value) ? Object.keys(value).slice(0, 6).join(', ') : value === null ? 'null' : typeof value);
      return [];
    });
  });
}

/**
 * The combination a `vllm bench sweep startup` result was run under, from its folder
 * (`SERVE--<serve name>-STARTUP--<startup name>/run=0.json`, either part alone when the other
 * sweep has one empty combination): the names joined by `-`, as the folder joins them. Null elsewhere.
 */
export function sweepCombination(path: string): string | null {
  const folder = path.split('/').at(-2) ?? '';
  const m = /^(?:SERVE--(.+?))?(?:-?STARTUP--(.+))?$/.exec(folder);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  return [m[1], m[2]].filter((s) => s !== undefined).join('-');
}
