import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { readYamlDocuments } from '../_shared/yaml/index.js';

/** One report read from a file: its values, where it starts, and the line of each key. */
export interface ReportDocument {
  readonly value: JsonValue;
  readonly line: number;
}

/** The 1-based line of each key of an object read by `readReports` (JSON or YAML: both record them in `keyLines`). */
export function linesOf(obj: JsonObject): Readonly<Record<string, number>> {
  return keyLines.get(obj) ?? {};
}

/** How many YAML errors of one file are reported (the rest follow from the first). */
const MAX_ERRORS = 3;

/**
 * The documents of a report file. JSON (`export_json`, `json.dump(indent=2)`) is read by the shared
 * JSON reader; YAML (`export_yaml`, PyYAML's `yaml.dump`) by the `yaml` package, as the sweep
 * runner reads its sweep files, each mapping key given its line by a `LineCounter`. YAML errors
 * (a file cut in the middle of a line) are warnings; the part read before them is kept.
 */
export function readReports(source: TextSource, sink: DiagnosticSink): ReportDocument[] {
  const first = source.lines.find((l) => l.trim() !== '' && !/^\s*#/.test(l)) ?? '';
  if (looksLikeJson(first)) return parseJsonDocuments(source, sink).map((d) => ({ value: d.value, line: d.line }));
  const { documents, errors } = readYamlDocuments(source.lines.join('\n'), { nonFinite: 'keep' });
  for (const e of errors.slice(0, MAX_ERRORS)) sink.report('yaml/syntax', { file: source.path, line: e.line, column: e.column }, firstLine(e.message));
  return documents;
}

function firstLine(message: string): string {
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

export { isJsonObject, type JsonObject, type JsonValue };
